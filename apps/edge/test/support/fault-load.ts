/**
 * Load and the money invariants for the fault suites (faults.*.test.ts): clients sending mixed
 * streaming and non-streaming chat back to back, and the check, once the ledger stops changing, that
 * every answer received in full has exactly one entry with the tokens it reported, nothing is charged
 * twice or for a request nobody sent, the ledger's total is the balance's drop, and no hold is left.
 */
import type { Stack } from './stacks';
import { type Admin, eventually } from './admin';

/** Requests per load at most: the ledger check reads them all back, and the admin API lists 1,000. */
const MAX_REQUESTS = 800;

export const MODELS = ['sigma-sonnet-4-6', 'gamma-2.5-flash', 'omega-k3'];
/** Upper bound of the chat loss window the test accepts (documented: linger 5 ms + client-side slack). */
export const LOSS_WINDOW_MS = 50;
/** Clients of a load through a crash, sending back to back. */
export const CLIENTS = 6;
/** Above the worst case of one request of this load (12 output tokens on the dearest model). */
export const MAX_HOLD_USD = 0.001;

export interface Outcome {
  status: number;
  requestId: string;
  stream: boolean;
  /** A non-stream 200, or a stream whose final usage chunk and [DONE] arrived. */
  complete: boolean;
  tokens?: { input: number; output: number };
  /** When the client had the whole answer (performance.now()). */
  endedAt: number;
}

export const simFaults = (stack: Stack, method: string, body?: unknown) =>
  fetch(`${stack.simUrl}/_sim/faults`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

export async function oneRequest(stack: Stack, key: string, i: number): Promise<Outcome> {
  const stream = i % 2 === 0;
  const model = MODELS[i % MODELS.length];
  const body = {
    model,
    messages: [{ role: 'user', content: `fault load ${i}` }],
    max_tokens: 12,
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
  const origin = stack.edges[i % stack.edges.length].origin;
  try {
    const res = await fetch(`${origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const requestId = res.headers.get('x-request-id') ?? '';
    const text = await res.text();
    const endedAt = performance.now();
    if (res.status !== 200) return { status: res.status, requestId, stream, complete: false, endedAt };
    if (!stream) {
      const usage = JSON.parse(text).usage;
      return {
        status: 200,
        requestId,
        stream,
        complete: true,
        tokens: { input: usage.prompt_tokens, output: usage.completion_tokens },
        endedAt,
      };
    }
    const chunks = text
      .split('\n\n')
      .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
      .map((l) => JSON.parse(l.slice(6)));
    const usage = chunks.find((c) => c.usage)?.usage;
    const complete = text.includes('data: [DONE]') && Boolean(usage) && !chunks.some((c) => c.error);
    return {
      status: 200,
      requestId,
      stream,
      complete,
      tokens: usage && { input: usage.prompt_tokens, output: usage.completion_tokens },
      endedAt,
    };
  } catch {
    // The connection broke (a killed edge): nothing was received in full.
    return { status: 0, requestId: '', stream, complete: false, endedAt: performance.now() };
  }
}

/** `concurrency` clients sending requests back to back until `during` resolves. */
export async function load(stack: Stack, key: string, concurrency: number, during: Promise<unknown>): Promise<Outcome[]> {
  let stop = false;
  void during.finally(() => (stop = true));
  const out: Outcome[] = [];
  let n = 0;
  await Promise.all([
    ...Array.from({ length: concurrency }, async () => {
      while (!stop && n < MAX_REQUESTS) out.push(await oneRequest(stack, key, n++));
    }),
    // The fault (and its restart) runs to its end even when the load reached its cap first.
    during,
  ]);
  return out;
}

/**
 * Load while the process `label` is killed (kill -9) `beforeMs` into it and restarted, and goes on
 * for `afterMs` after the restart; `killedAt` is when the kill was sent (performance.now()).
 */
export async function loadThroughCrash(
  stack: Stack,
  key: string,
  label: string,
  { beforeMs, afterMs }: { beforeMs: number; afterMs: number },
): Promise<{ outcomes: Outcome[]; killedAt: number }> {
  let killedAt = 0;
  const outcomes = await load(
    stack,
    key,
    CLIENTS,
    (async () => {
      await new Promise((r) => setTimeout(r, beforeMs));
      killedAt = performance.now();
      await stack.restart!(label, { crash: true });
      await new Promise((r) => setTimeout(r, afterMs));
    })(),
  );
  return { outcomes, killedAt };
}

/**
 * An answer that ended within the loss window around the kill (docs/reliability.md): it may be unbilled.
 * After the kill too: one of many clients in a busy test process can read an answer the killed process
 * sent tens of ms later, and no answer in that window comes from the restarted process (it boots for
 * far longer than the window).
 */
export const withinLossWindow = (killedAt: number) => (o: Outcome) => Math.abs(killedAt - o.endedAt) <= LOSS_WINDOW_MS;

/** Prints how many delivered answers a kill left unbilled, and how long before the kill each ended. */
export function reportUnbilled(label: string, unbilled: Outcome[], killedAt: number): void {
  const gaps = unbilled.map((o) => Math.round(killedAt - o.endedAt));
  process.stderr.write(
    `[faults] kill -9 ${label}: ${unbilled.length} delivered answers unbilled${gaps.length ? `, ended ${gaps.join(', ')} ms before the kill` : ''}\n`,
  );
}

interface Ledger {
  entries: Array<{ request_id: string; input_tokens: number; output_tokens: number; cost_micros: number }>;
  balanceDropMicros: number;
  reservedUsd: number;
}

/**
 * The ledger and the balance as one consistent reading: the balance read before and after the
 * entries must agree, or a settlement landed in between and the reading is not used.
 */
async function ledgerOf(admin: Admin, accountId: string, creditUsd: number): Promise<Ledger & { consistent: boolean }> {
  const before = await admin.account(accountId);
  const entries = await admin.usage(accountId);
  const after = await admin.account(accountId);
  return {
    entries,
    balanceDropMicros: Math.round((creditUsd - after.balance_usd) * 1e6),
    reservedUsd: after.reserved_usd,
    consistent: before.balance_usd === after.balance_usd,
  };
}

/** How long the ledger must stay unchanged to count as settled (a restarted consumer rejoins its group within this). */
const QUIET_MS = 3_000;

/** Waits until the ledger stops changing and no hold is left, then checks the invariants. */
export async function settledInvariants(
  admin: Admin,
  accountId: string,
  creditUsd: number,
  outcomes: Outcome[],
  opts: { unbilledAllowed?: (o: Outcome) => boolean; orphanedHoldsUsd?: number; killedAt?: number } = {},
) {
  let last = -1;
  let since = performance.now();
  const ledger = await eventually(
    () => ledgerOf(admin, accountId, creditUsd),
    (l) => {
      if (l.entries.length !== last || !l.consistent) {
        last = l.entries.length;
        since = performance.now();
        return false;
      }
      return performance.now() - since >= QUIET_MS && l.reservedUsd <= (opts.orphanedHoldsUsd ?? 0);
    },
    90_000,
  );
  const byRequest = new Map<string, Ledger['entries']>();
  for (const e of ledger.entries) byRequest.set(e.request_id, [...(byRequest.get(e.request_id) ?? []), e]);
  // Never charged twice.
  for (const [id, list] of byRequest) expect([id, list.length]).toEqual([id, 1]);
  // The ledger's total is the balance's drop.
  // The admin API lists at most 1,000 entries (newest first): the load stays below it (MAX_REQUESTS).
  expect(ledger.entries.length).toBeLessThan(1_000);
  expect(ledger.entries.reduce((s, e) => s + e.cost_micros, 0)).toBe(ledger.balanceDropMicros);
  // Every answer received in full: exactly one entry with the tokens it reported.
  const unbilled: Outcome[] = [];
  for (const o of outcomes.filter((x) => x.complete)) {
    const entry = byRequest.get(o.requestId)?.[0];
    if (!entry) {
      unbilled.push(o);
      continue;
    }
    expect({ id: o.requestId, input: entry.input_tokens, output: entry.output_tokens }).toEqual({ id: o.requestId, ...o.tokens });
  }
  // Named with how long before the kill each ended, so a failure says how far outside the window it was.
  const killedAt = opts.killedAt;
  const timed = (o: Outcome) => (killedAt === undefined ? o : { ...o, msBeforeKill: Math.round(killedAt - o.endedAt) });
  expect(unbilled.filter((o) => !opts.unbilledAllowed?.(o)).map(timed)).toEqual([]);
  // Nothing is charged that no client sent: an entry belongs to a request whose answer we saw, or to
  // one whose connection broke before its headers arrived (its id never reached the client).
  const sent = new Set(outcomes.map((o) => o.requestId));
  const unknown = ledger.entries.filter((e) => !sent.has(e.request_id));
  expect(unknown.length).toBeLessThanOrEqual(outcomes.filter((o) => o.requestId === '').length);
  return { ledger, unbilled };
}
