/**
 * Property-based hostile input (fast-check), generated from the contracts: every endpoint spec's
 * example and every admin operation's example is mutated one field at a time — wrong types,
 * missing fields, boundary numbers, huge and deep values, NUL and lone surrogates, unknown fields —
 * and as raw bytes (invalid UTF-8, truncation, flipped bytes). Every answer must be a success or a
 * 4xx in the endpoint's shape, naming the mutated field when it is a 400 about it, within a bounded
 * time, while /health/live keeps answering. A new endpoint spec is covered through its `example`.
 * The Responses API's WebSocket mode gets the same properties as `response.create` messages.
 *
 * The run is reproducible: FUZZ_SEED (default below) picks the cases; a failure prints the seed and
 * the shrunk counterexample.
 */
import { once } from 'node:events';
import fc from 'fast-check';
import { ENDPOINTS, MAX_JSON_DEPTH, responsesSpec, type ErrorShape } from '@unigate/contracts';
import WebSocket from 'ws';
import type { Stack } from './stacks';
import { Admin } from './admin';
import { eventLoopStallMs, GATEWAY_STALL_MS, probeLiveness } from './liveness';
import { answerEnding } from './responses-events';
import { useStack } from './use-stack';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
/**
 * A single hostile request must be answered within this: bounded, with room for the slowest
 * legitimate case (speech of a long text encodes a minute of audio or more on a shared machine).
 */
const CASE_MS = 15_000;
/**
 * /health/live must answer within this throughout. The probe is timed by the client, so it carries
 * the host's scheduling too: with two jest workers on two cores, probes took 1.24 s while the other
 * worker booted the distributed fuzz stack (fresh-clone CI, 2026-11-29) and 2.22 s in a slow
 * fresh-clone run (2026-11-30, suite total 1053 s) while the gateway's own event-loop stall stayed
 * under GATEWAY_STALL_MS. That self-measured stall is the precise freeze check; this one proves the
 * gateway keeps answering at all, and a frozen process holds it far longer.
 */
const LIVE_MS = 5_000;

type Path = Array<string | number>;
type Json = unknown;

/** Every path to a value inside `value` (not the root). */
function pathsOf(value: Json, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...prefix, i], ...pathsOf(v, [...prefix, i])]);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...pathsOf(v, [...prefix, k])]);
  return [];
}

const nested = (depth: number): Json => {
  let v: Json = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};

/** Values no field expects, or that sit on a boundary. */
const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308, '', [], {}),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', '\udfff x', '🙂'.repeat(1_000), 'x'.repeat(300_000)),
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.integer({ min: MAX_JSON_DEPTH - 2, max: 2_000 }).map(nested),
);

type Mutation =
  { op: 'replace'; path: Path; value: Json } | { op: 'delete'; path: Path } | { op: 'add'; path: Path; key: string; value: Json };

function mutations(example: Json): fc.Arbitrary<Mutation> {
  const paths = pathsOf(example);
  const objects = [[], ...paths].filter((p) => {
    const v = at(example, p);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  });
  return fc.oneof(
    fc.record({ op: fc.constant('replace' as const), path: fc.constantFrom(...paths), value: hostileValue }),
    fc.record({ op: fc.constant('delete' as const), path: fc.constantFrom(...paths) }),
    fc.record({
      op: fc.constant('add' as const),
      path: fc.constantFrom(...objects),
      key: fc.string({ minLength: 1, maxLength: 12 }),
      value: hostileValue,
    }),
  );
}

function at(value: Json, path: Path): Json {
  return path.reduce<Json>((v, k) => (v as Record<string | number, Json>)[k], value);
}

function apply(example: Json, m: Mutation): Json {
  const copy = structuredClone(example);
  const parent = at(copy, m.op === 'add' ? m.path : m.path.slice(0, -1)) as Record<string | number, Json>;
  if (m.op === 'add') parent[m.key] = m.value;
  else if (m.op === 'replace') parent[m.path[m.path.length - 1]] = m.value;
  else if (Array.isArray(parent)) parent.splice(Number(m.path[m.path.length - 1]), 1);
  else delete parent[m.path[m.path.length - 1]];
  return copy;
}

/** Raw-byte damage to a valid body: invalid UTF-8, truncation, flipped bytes. */
function byteMutations(body: Buffer): fc.Arbitrary<Buffer> {
  const n = body.length;
  return fc.oneof(
    fc.integer({ min: 0, max: n }).map((i) => Buffer.concat([body.subarray(0, i), Buffer.from([0xff, 0xfe, 0xc3]), body.subarray(i)])),
    fc.integer({ min: 0, max: n - 1 }).map((i) => body.subarray(0, i)),
    fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: 255 })).map(([i, b]) => {
      const copy = Buffer.from(body);
      copy[i] = b;
      return copy;
    }),
  );
}

/** The body of a 4xx in `shape` (SPEC.md §7; 429 is Shape A everywhere). Returns its words about the cause. */
function expectShape(status: number, body: Record<string, unknown>, shape: ErrorShape): string {
  if (status === 429 || shape === 'A') {
    expect(body).toMatchObject({ code: expect.any(String), message: expect.any(String), request_id: expect.any(String) });
    return String(body.message);
  }
  if (shape === 'anthropic') {
    expect(body).toMatchObject({ type: 'error', error: { type: expect.any(String), message: expect.any(String) } });
    return String((body.error as { message: string }).message);
  }
  expect(body).toMatchObject({ error: { message: expect.any(String), type: expect.any(String) } });
  const error = body.error as { message: string; param?: string | null };
  return `${error.param ?? ''} ${error.message}`;
}

interface Target {
  label: string;
  url: () => string;
  headers: () => Record<string, string>;
  example: Json;
  shape: ErrorShape;
  /** The endpoint takes a multipart form, not JSON. */
  multipart?: boolean;
  /** POST unless said. */
  method?: 'PATCH';
}

/**
 * `seedOffset` and `runsShare` let a second deployment draw cases of its own instead of repeating the
 * first's through the same pipeline (the distributed suite: what it adds is the gRPC hop).
 */
export function fuzzSuite(start: () => Promise<Stack>, { seedOffset = 0, runsShare = 1 } = {}) {
  const seed = SEED + seedOffset;
  const runs = Math.ceil(RUNS * runsShare);
  let stack: Stack;
  useStack(start, (s) => (stack = s));
  let accountId = '';
  beforeAll(async () => {
    accountId = (await new Admin(stack).createAccount('fuzz', 1)).id;
  });

  const api = (): Record<string, string> => ({ authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' });
  const admin = (): Record<string, string> => ({ authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' });
  const targets: Target[] = [
    ...ENDPOINTS.map((spec) => ({
      label: spec.path,
      url: () => `${stack.origin}${spec.path}`,
      headers: api,
      example: spec.example as Json,
      shape: spec.errorShape(),
      multipart: spec.body?.kind === 'multipart',
    })),
    {
      label: 'admin: create account',
      url: () => `${stack.origin}/admin/v1/accounts`,
      headers: admin,
      example: { name: 'fuzz', credit_usd: 1 },
      shape: 'B',
    },
    {
      label: 'admin: credit',
      url: () => `${stack.origin}/admin/v1/accounts/${accountId}/credit`,
      headers: admin,
      example: { amount_usd: 0.5, reference: 'fuzz' },
      shape: 'B',
    },
    {
      label: 'admin: create key',
      url: () => `${stack.origin}/admin/v1/accounts/${accountId}/keys`,
      headers: admin,
      example: { name: 'k', models: ['sigma-sonnet-4-6'], rate_limit_rpm: 600, max_concurrency: 4 },
      shape: 'B',
    },
    {
      label: 'admin: set tier',
      url: () => `${stack.origin}/admin/v1/accounts/${accountId}`,
      headers: admin,
      example: { tier: 'free' },
      shape: 'B',
      method: 'PATCH',
    },
  ];

  /**
   * Runs `work` while /health/live is probed, then checks the slowest probe and the longest the
   * gateway's own event loop stalled meanwhile (the edge's, in distributed).
   */
  const whileLive = async (work: () => Promise<void>): Promise<void> => {
    await eventLoopStallMs(stack.origin, stack.adminToken); // starts the stall measure afresh
    const { slowestMs } = await probeLiveness(stack.origin, work, 100);
    // Measured by the gateway itself, so the runner's own scheduling is not in it (its process's is).
    expect(await eventLoopStallMs(stack.origin, stack.adminToken)).toBeLessThan(GATEWAY_STALL_MS);
    expect(slowestMs).toBeLessThan(LIVE_MS);
  };

  async function send(target: Target, body: string | Buffer): Promise<{ status: number; text: string }> {
    const started = performance.now();
    const res = await fetch(target.url(), {
      method: target.method ?? 'POST',
      headers: target.headers(),
      body,
      signal: AbortSignal.timeout(CASE_MS * 2),
    });
    const text = await res.text();
    expect(performance.now() - started).toBeLessThan(CASE_MS);
    return { status: res.status, text };
  }

  describe.each(targets.map((t) => [t.label, t] as const))('%s', (_label, target) => {
    // A multipart endpoint's fields are strings by nature: its JSON mutations are refused as a whole
    // (not multipart), so only the raw-byte property applies to it.
    if (!target.multipart)
      it('answers every one-field mutation with a success or a 4xx in its shape naming the field', async () => {
        await whileLive(() =>
          fc.assert(
            fc.asyncProperty(mutations(target.example), async (m) => {
              const { status, text } = await send(target, JSON.stringify(apply(target.example, m)));
              expect(status).toBeGreaterThanOrEqual(200);
              expect(status).toBeLessThan(500);
              if (status < 300) return;
              const words = expectShape(status, JSON.parse(text), target.shape);
              // A 400 about the mutated field names it (its top-level name at least); a JSON-level
              // refusal (too deep) names the cap instead.
              const field = String(m.path[0] ?? (m.op === 'add' ? m.key : ''));
              if (status === 400 && !/deeper than|unknown field/.test(words) && m.path.length > 0) expect(words).toContain(field);
            }),
            { seed, numRuns: runs, endOnFailure: true },
          ),
        );
      });

    it('answers raw-byte damage (invalid UTF-8, truncation, flipped bytes) with a success or a 4xx in its shape', async () => {
      const valid = Buffer.from(JSON.stringify(target.example));
      await whileLive(() =>
        fc.assert(
          fc.asyncProperty(byteMutations(valid), async (body) => {
            const { status, text } = await send(target, body);
            expect(status).toBeGreaterThanOrEqual(200);
            expect(status).toBeLessThan(500);
            if (status >= 300) expectShape(status, JSON.parse(text), target.shape);
          }),
          { seed, numRuns: Math.ceil(runs / 2), endOnFailure: true },
        ),
      );
    });
  });

  /**
   * The Responses API's WebSocket mode: each message is a request of its own on one connection, so
   * every mutated `response.create` must end in a response or a 4xx error message, and the connection
   * must stay usable.
   */
  describe('WebSocket mode: response.create messages', () => {
    type Ending = { type: string; status?: number; error?: Record<string, unknown> };
    let ws: WebSocket;
    beforeAll(async () => {
      ws = new WebSocket(`${stack.origin.replace(/^http/, 'ws')}${responsesSpec.path}`, { headers: api() });
      await once(ws, 'open');
    });
    afterAll(() => ws?.close());

    const exchange = (text: string) => answerEnding<Ending>(ws, text, CASE_MS);
    const answered = (end: Ending) => {
      if (end.type === 'error') {
        expect(end.status).toBeGreaterThanOrEqual(400);
        expect(end.status).toBeLessThan(500);
        expect(end.error).toMatchObject({ message: expect.any(String), type: expect.any(String) });
      } else expect(['response.completed', 'response.incomplete']).toContain(end.type);
    };
    const example = { type: 'response.create', ...(responsesSpec.example as object) };

    it('answers every one-field mutation with a response or a 4xx error message', async () => {
      await whileLive(() =>
        fc.assert(
          fc.asyncProperty(mutations(example), async (m) => answered(await exchange(JSON.stringify(apply(example, m))))),
          { seed, numRuns: Math.ceil(runs / 2), endOnFailure: true },
        ),
      );
    });

    it('answers damaged text (truncation, flipped bytes) with a response or a 4xx error message', async () => {
      const valid = Buffer.from(JSON.stringify(example));
      await whileLive(() =>
        fc.assert(
          // As text: a text frame that is not UTF-8 closes the connection (1007), the protocol's rule.
          fc.asyncProperty(byteMutations(valid), async (body) => answered(await exchange(body.toString('utf8')))),
          { seed, numRuns: Math.ceil(runs / 2), endOnFailure: true },
        ),
      );
    });
  });
}
