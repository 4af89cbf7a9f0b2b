/**
 * The pipeline's side of held calls, on Fastify with the real chat completions spec: a port to another
 * process gets the call with the admission still in flight; the admission's outcome decides the answer
 * and the money (a refusal is the client's answer, a failure while admitting still refunds and frees
 * the slot), and a key refused a moment ago is admitted first instead.
 */
import {
  chatCompletionsSpec,
  errors,
  TokenCountMemo,
  type EndpointCall,
  type EndpointPort,
  type KeyPrincipal,
  type ModelRoute,
} from '@unigate/contracts';
import type { Admitted, AdmitRequest, Reservations } from '@unigate/billing/reservations';
import { createLogger } from '@unigate/platform';
import { waitFor } from '@unigate/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { EndpointPipeline } from './endpoint-pipeline';

const route: ModelRoute = {
  model: { id: 'm1', family: 'omega', kind: 'chat', owned_by: 'omega', created: 1, prices: { input_per_mtok: 1, output_per_mtok: 2 } },
  channels: [],
};
const principal = (key_id: string): KeyPrincipal => ({
  key_id,
  account_id: 'acct_1',
  models: [],
  rate_limit_rpm: null,
  max_concurrency: null,
  tier: 'paid',
});
const answer = { id: 'c1', object: 'chat.completion', created: 1, model: 'm1', choices: [] };

/** Admits or refuses by key; the admission answers when `open` is called (or at once). Records what went back. */
class ScriptedReservations implements Reservations {
  readonly admitted: string[] = [];
  readonly amounts: number[] = [];
  readonly refunded: string[] = [];
  readonly shrunk: Array<[string, number]> = [];
  readonly finished: string[] = [];
  private readonly waiting: Array<() => void> = [];
  held = false;

  admit(req: AdmitRequest): Promise<Admitted> {
    this.admitted.push(req.principal.key_id);
    this.amounts.push(req.amount_micros);
    const settle = () => {
      if (req.principal.key_id.startsWith('spent')) throw errors.rateLimited('Rate limit reached for this API key.', 1);
      // Idempotent, as the contract says: the slot may be given back from more than one place.
      const once = (into: string[]) => async () => void (into.includes(req.request_id) || into.push(req.request_id));
      const shrinkTo = async (cost: number) => void this.shrunk.push([req.request_id, cost]);
      return { holdId: req.request_id, refund: once(this.refunded), shrinkTo, finish: once(this.finished) };
    };
    if (!this.held) return Promise.resolve().then(settle);
    return new Promise<void>((resolve) => this.waiting.push(resolve)).then(settle);
  }
  open(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }
  /** How many admissions are waiting for `open`. */
  get inFlight(): number {
    return this.waiting.length;
  }
  release = async () => undefined;
  checkReady = async () => undefined;
  close = async () => undefined;
}

/**
 * A port to another process: records whether each call came with its admission still in flight.
 * With `cost`, the service says what each call cost, as one that recorded usage does.
 */
function remotePort(behaviour: (call: EndpointCall) => Promise<unknown> = async () => answer, waitsForAdmission = true, cost?: number) {
  const calls: Array<{ call: EndpointCall; withAdmission: boolean }> = [];
  const port: EndpointPort = {
    overlapsAdmission: true,
    call: async (call, _signal, meter, admission) => {
      calls.push({ call, withAdmission: admission !== undefined });
      // As the gRPC client does: the call's outcome waits for the admission when it fails first.
      const result = behaviour(call);
      result.catch(() => undefined);
      if (waitsForAdmission) await admission;
      const value = await result;
      if (meter && cost !== undefined) meter.cost_micros = cost;
      return value;
    },
    // A stream that fails (before its first item, or with `cost` after one), without waiting for the admission.
    stream: async function* (call, _signal, meter, admission) {
      calls.push({ call, withAdmission: admission !== undefined });
      if (cost !== undefined) {
        await admission;
        yield { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm1', choices: [] };
        if (meter) meter.cost_micros = cost;
      }
      throw errors.upstream(502, 'upstream broke', false);
    },
  };
  return { port, calls };
}

let app: FastifyInstance;
afterEach(() => app?.close());

async function serve(reservations: Reservations, port: EndpointPort) {
  const pipeline = new EndpointPipeline({
    catalog: { resolve: async () => route, list: async () => [route.model] },
    reservations,
    services: { chat: port },
    logger: createLogger('pipeline-spec', 'silent'),
  });
  app = Fastify();
  app.post(chatCompletionsSpec.path, {
    onRequest: async (request) => void (request.principal = principal(String(request.headers['x-key']))),
    handler: (request, reply) => pipeline.handle(chatCompletionsSpec, request, reply),
  });
  await app.ready();
  return (key: string, stream = false, content = 'hi') =>
    app.inject({
      method: 'POST',
      url: chatCompletionsSpec.path,
      headers: { 'x-key': key },
      payload: { model: 'm1', messages: [{ role: 'user', content }], ...(stream && { stream: true }) },
    });
}

test('the call reaches a remote port while its admission is in flight, carrying its hold; admitted, it answers and frees its slot', async () => {
  const reservations = new ScriptedReservations();
  reservations.held = true;
  const { port, calls } = remotePort();
  const send = await serve(reservations, port);
  const pending = send('k1');
  await waitFor('the call to reach the port', () => calls.length === 1, 5_000, 5);
  expect(calls[0].withAdmission).toBe(true);
  expect(calls[0].call.hold_id).toBe(calls[0].call.request_id);
  reservations.open();
  const res = await pending;
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ id: 'c1' });
  expect(reservations.finished).toEqual([calls[0].call.request_id]);
  expect(reservations.refunded).toEqual([]);
});

test('a call whose service says what it cost shrinks its hold to that cost before the answer goes out, and gives nothing back whole', async () => {
  const reservations = new ScriptedReservations();
  const { port, calls } = remotePort(undefined, true, 1234);
  const send = await serve(reservations, port);
  const res = await send('k6');
  expect(res.statusCode).toBe(200);
  expectShrunkTo(reservations, calls[0].call.request_id, 1234);
});

test('a call whose service says nothing of its cost (an older service, or no usage recorded) leaves its hold whole for billing', async () => {
  const reservations = new ScriptedReservations();
  const send = await serve(reservations, remotePort().port);
  expect((await send('k7')).statusCode).toBe(200);
  expect(reservations.shrunk).toEqual([]);
  expect(reservations.refunded).toEqual([]);
  expect(reservations.finished).toHaveLength(1);
});

test('a cost that is not a whole number of micro-dollars (a broken price) is no cost: the hold stays whole for billing', async () => {
  const reservations = new ScriptedReservations();
  const send = await serve(reservations, remotePort(undefined, true, Number.NaN).port);
  expect((await send('k9')).statusCode).toBe(200);
  expect(reservations.shrunk).toEqual([]);
  expect(reservations.refunded).toEqual([]);
});

test('a stream cut off after the service recorded usage keeps its cost held instead of giving the hold back', async () => {
  const reservations = new ScriptedReservations();
  const { port, calls } = remotePort(undefined, true, 99);
  const send = await serve(reservations, port);
  const res = await send('k8', true);
  expect(res.statusCode).toBe(200);
  expect(res.body).toContain('upstream broke');
  expectShrunkTo(reservations, calls[0].call.request_id, 99);
});

/** The call's hold shrank to `cost`, nothing went back whole, and its slot was freed. */
function expectShrunkTo(reservations: ScriptedReservations, id: string, cost: number) {
  expect(reservations.shrunk).toEqual([[id, cost]]);
  expect(reservations.refunded).toEqual([]);
  expect(reservations.finished).toEqual([id]);
}

test("a refused admission is the client's answer; the same key right after is admitted first and never reaches the port", async () => {
  const reservations = new ScriptedReservations();
  const { port, calls } = remotePort();
  const send = await serve(reservations, port);
  const first = await send('spent-1');
  expect(first.statusCode).toBe(429);
  expect(calls).toHaveLength(1);
  const second = await send('spent-1');
  expect(second.statusCode).toBe(429);
  expect(calls).toHaveLength(1);
  expect(reservations.admitted).toEqual(['spent-1', 'spent-1']);
  // Another key still travels with its admission.
  expect((await send('k2')).statusCode).toBe(200);
  expect(calls.map((c) => c.withAdmission)).toEqual([true, true]);
});

test.each([
  ['after the admission answered', true],
  ['before the admission answered', false],
])('a call that fails while its admission is in flight (%s) refunds the hold and frees the slot once admitted', async (_, waits) => {
  const reservations = new ScriptedReservations();
  reservations.held = true;
  const { port } = remotePort(async () => {
    throw errors.upstream(502, 'upstream broke', false);
  }, waits);
  const send = await serve(reservations, port);
  await failsThenSettles(reservations, send('k3'));
});

test('a stream that fails before its first item while its admission is in flight answers the error, then refunds and frees the slot', async () => {
  const reservations = new ScriptedReservations();
  reservations.held = true;
  const { port, calls } = remotePort();
  const send = await serve(reservations, port);
  await failsThenSettles(reservations, send('k4', true));
  expect(calls.map((c) => c.withAdmission)).toEqual([true]);
});

/** A failed call's answer waits for its admission; once that answers, the hold goes back and the slot is freed. */
async function failsThenSettles(reservations: ScriptedReservations, pending: Promise<{ statusCode: number }>) {
  let answered = false;
  void pending.then(() => (answered = true));
  // Opened before the admission is asked for, it would never answer: wait for it, however loaded the host.
  await waitFor('the admission to be asked for', () => reservations.inFlight === 1, 5_000, 5);
  // Time for an answer that did not wait for the admission to come out.
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(answered).toBe(false);
  expect(reservations.refunded).toEqual([]);
  reservations.open();
  expect((await pending).statusCode).toBe(502);
  expect(reservations.refunded).toHaveLength(1);
  expect(reservations.finished).toHaveLength(1);
}

test("the hold is sized with the account's remembered token counts: a long message sent again is not scanned again and sizes the same hold", async () => {
  const count = jest.spyOn(TokenCountMemo.prototype, 'count');
  try {
    const reservations = new ScriptedReservations();
    const { port } = remotePort();
    const send = await serve(reservations, port);
    const long = 'const answer = compute(question, "context"); '.repeat(40);
    expect((await send('k5', false, long)).statusCode).toBe(200);
    expect((await send('k5', false, long)).statusCode).toBe(200);
    expect(count.mock.calls.map(([account, text]) => [account, text])).toEqual([
      ['acct_1', long],
      ['acct_1', long],
    ]);
    expect((count.mock.contexts[0] as TokenCountMemo).hits).toBe(1);
    expect(reservations.amounts[1]).toBe(reservations.amounts[0]);
    expect(reservations.amounts[0]).toBeGreaterThan(0);
  } finally {
    count.mockRestore();
  }
});
