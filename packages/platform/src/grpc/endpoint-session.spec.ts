/**
 * Endpoint calls over sessions (endpoint.proto's Session), on real gRPC: calls reuse idle sessions
 * instead of opening a stream each, answers and failures reach the right caller, a caller leaving
 * cancels the service's work, shutdown ends idle sessions at once, and a service without Session
 * (an older version mid-rollout) is called per call.
 */
import { createLogger } from '../logger';
import type { Metadata, ServerDuplexStream } from '@grpc/grpc-js';
import { errors, type CallMeter, type EndpointCall, type EndpointPort, type JsonText } from '@unigate/contracts';
import type { EndpointServiceHandlers, SessionCall__Output, SessionReply } from '@unigate/proto';
import { BodyBudget } from '../http/body-budget';
import { GrpcEndpointClient, endpointServiceHandlers } from './endpoint-transport';
import { SESSION_STOPS_METADATA, startGrpcServer, type GrpcServer, type GrpcServerOptions } from './grpc-server';
import { STOP_GRACE_MS } from './session-pool';
import { waitFor } from '@unigate/testing';

/** How the services here are served: the process's default body budget, refusals logged nowhere. */
const SERVED = { logger: createLogger('test', 'silent') };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Request ids whose call the service saw aborted. */
const aborted: string[] = [];
const untilAborted = (call: EndpointCall, signal: AbortSignal) =>
  new Promise<never>((_, reject) =>
    signal.addEventListener('abort', () => {
      aborted.push(call.request_id);
      reject(signal.reason);
    }),
  );

/** Embeddings answer `[input]`; speech streams `input` one-byte chunks. 'fail', 'hang' and 'slow…' do what they say. */
const port: EndpointPort = {
  call: async (call, signal) => {
    const { input } = call.body as { input: string };
    if (input === 'fail') throw errors.invalidRequest('input says fail', 'input');
    if (input === 'hang') await untilAborted(call, signal!);
    if (input.startsWith('slow')) await sleep(Number(input.slice(4)));
    return {
      object: 'list',
      model: 'm',
      data: [{ object: 'embedding', index: 0, embedding: [Number(input.replace('slow', ''))] }],
      usage: { prompt_tokens: 1, total_tokens: 1 },
    };
  },
  stream: async function* (call, signal) {
    const { input } = call.body as { input: string };
    if (input === 'hang') {
      yield new Uint8Array([1]);
      await untilAborted(call, signal);
    }
    for (let i = 0; i < Number(input); i++) yield new Uint8Array([i]);
  },
};

const route = (kind: 'embedding' | 'speech') => ({
  model: { id: 'm', family: 'zeta', kind, owned_by: 'zeta', created: 1, prices: { input_per_mtok: 1, output_per_mtok: 0 } },
  channels: [],
});
let ids = 0;
const embed = (input: string | number): EndpointCall => ({
  endpoint: 'embeddings',
  request_id: `req_${++ids}`,
  account_id: 'acct_1',
  key_id: 'key_1',
  hold_id: null,
  route: route('embedding'),
  // Asked for as base64: the answer reaches the edge as the service's JSON text (floats would be read).
  body: { model: 'm', input: String(input), encoding_format: 'base64' },
  options: {},
});
const speak = (input: string | number): EndpointCall => ({ ...embed(input), endpoint: 'audio.speech', route: route('speech') });
/** The number in an embeddings answer, which arrives as the service's JSON text. */
const embedding = (answer: unknown) =>
  (JSON.parse((answer as JsonText).text) as { data: Array<{ embedding: number[] }> }).data[0].embedding[0];
async function frames(client: GrpcEndpointClient, call: EndpointCall): Promise<number[]> {
  const out: number[] = [];
  for await (const chunk of client.stream(call, new AbortController().signal)) out.push(...(chunk as Uint8Array));
  return out;
}

/** A server over `port` that counts the sessions opened, the connections they came on and the per-call RPCs served. */
async function serve(withSessions = true, options: GrpcServerOptions = {}) {
  const counts = { sessions: 0, perCall: 0, peers: new Set<string>() };
  const handlers = endpointServiceHandlers(port, SERVED);
  const served: Partial<EndpointServiceHandlers> = {
    Call: (c, done) => (counts.perCall++, handlers.Call(c, done)),
    Stream: (c) => (counts.perCall++, handlers.Stream(c)),
  };
  // Wrapped by assignment so the handler keeps what lets the server drain it.
  if (withSessions) {
    const session = handlers.Session;
    served.Session = Object.assign((c: ServerDuplexStream<SessionCall__Output, SessionReply>) => {
      counts.sessions++;
      counts.peers.add(c.getPeer());
      session(c);
    }, session);
  }
  const server = await startGrpcServer('127.0.0.1:0', { endpoint: served as EndpointServiceHandlers }, options);
  return { server, counts, client: new GrpcEndpointClient(`127.0.0.1:${server.port}`) };
}

let main: Awaited<ReturnType<typeof serve>>;
const servers: GrpcServer[] = [];
beforeAll(async () => {
  main = await serve();
  servers.push(main.server);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close(0)));
});

test('calls one after another share one session, and none goes per call', async () => {
  const before = main.counts.sessions;
  for (let i = 1; i <= 5; i++) expect(embedding(await main.client.call(embed(i)))).toBe(i);
  expect(await frames(main.client, speak(3))).toEqual([0, 1, 2]);
  expect(main.counts.sessions - before).toBeLessThanOrEqual(1);
  expect(main.counts.perCall).toBe(0);
});

test('concurrent calls each get their own answer, on as many sessions as ran at once, reused after', async () => {
  const before = main.counts.sessions;
  const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => main.client.call(embed(`slow${20 + i}`))));
  expect(answers.map(embedding)).toEqual([20, 21, 22, 23, 24, 25, 26, 27]);
  const opened = main.counts.sessions - before;
  expect(opened).toBeGreaterThanOrEqual(2);
  expect(opened).toBeLessThanOrEqual(8);

  await Promise.all(Array.from({ length: 8 }, (_, i) => main.client.call(embed(i))));
  expect(main.counts.sessions - before).toBe(opened);
});

test("a service's error reaches the caller as the same GatewayError, and the session stays in use", async () => {
  await main.client.call(embed(1));
  const before = main.counts.sessions;
  await expect(main.client.call(embed('fail'))).rejects.toMatchObject({ status: 400, param: 'input', message: 'input says fail' });
  expect(embedding(await main.client.call(embed(7)))).toBe(7);
  expect(main.counts.sessions).toBe(before);
});

test("a caller that stops reading a stream stops the service's stream, and its session serves the next calls", async () => {
  await main.client.call(embed(1));
  const before = main.counts.sessions;
  const call = speak('hang');
  for await (const chunk of main.client.stream(call, new AbortController().signal)) {
    expect(chunk).toEqual(new Uint8Array([1]));
    break;
  }
  // Aborted by the time the caller's loop is left: the stop's answer was waited for.
  expect(aborted).toContain(call.request_id);
  await main.client.call(embed(1));
  expect(await frames(main.client, speak(2))).toEqual([0, 1]);
  expect(main.counts.sessions).toBe(before);
});

test("an aborted call aborts the service's call and rejects with the abort's reason", async () => {
  const abort = new AbortController();
  const call = embed('hang');
  const answer = main.client.call(call, abort.signal);
  await sleep(30);
  abort.abort(new Error('client gone'));
  await expect(answer).rejects.toThrow('client gone');
  await waitFor('the call to be aborted', () => aborted.includes(call.request_id), 2_000, 5);
  expect(embedding(await main.client.call(embed(3)))).toBe(3);
});

test('a session past its age is closed, not reused, even when it waited in the pool', async () => {
  const { server, counts } = await serve();
  servers.push(server);
  // The age runs from the session's creation, connection included: on a loaded host the first call
  // alone has taken over 100 ms (fresh-clone CI, 9ebe0ac), so the age leaves room for both calls.
  const aging = new GrpcEndpointClient(`127.0.0.1:${server.port}`, { maxAgeMs: 1_000 });
  await aging.call(embed(1));
  await aging.call(embed(2));
  expect(counts.sessions).toBe(1);
  await sleep(1_100);
  expect(embedding(await aging.call(embed(3)))).toBe(3);
  expect(counts.sessions).toBe(2);
});

test('shutdown ends idle sessions at once and lets a running call finish', async () => {
  const { server, client } = await serve();
  const idler = new GrpcEndpointClient(`127.0.0.1:${server.port}`);
  await Promise.all([client.call(embed(1)), idler.call(embed(2))]);
  const running = client.call(embed('slow200'));
  await sleep(30);
  const started = Date.now();
  await server.close(5_000);
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(embedding(await running)).toBe(200);
});

test('a session the server ended is not used again: the next call fails over a fresh attempt, not a dead session', async () => {
  const { server, client } = await serve();
  await client.call(embed(1));
  await server.close(5_000);
  // The server is gone: a 503, not a hang on the ended session.
  await expect(client.call(embed(2))).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
});

test('a call that a draining server did not take is sent again on a new session', async () => {
  const handlers = endpointServiceHandlers(port, SERVED);
  let sessions = 0;
  // The first session ends on its first call unanswered, as one that was draining when the call came.
  const Session = (c: ServerDuplexStream<SessionCall__Output, SessionReply>) =>
    ++sessions === 1 ? c.once('data', () => c.end()) : handlers.Session(c);
  const server = await startGrpcServer('127.0.0.1:0', { endpoint: { ...handlers, Session } });
  servers.push(server);
  const client = new GrpcEndpointClient(`127.0.0.1:${server.port}`);
  expect(embedding(await client.call(embed(6)))).toBe(6);
  expect(sessions).toBe(2);
});

test('a service without Session (an older version) is called per call, streams included', async () => {
  const old = await serve(false);
  servers.push(old.server);
  expect(embedding(await old.client.call(embed(4)))).toBe(4);
  expect(await frames(old.client, speak(2))).toEqual([0, 1]);
  expect(embedding(await old.client.call(embed(5)))).toBe(5);
  expect(old.counts.perCall).toBe(3);
});

test('a connection older than the server allows is replaced (to be placed again), and calls go on without a failure', async () => {
  const { server, counts } = await serve(true, { maxConnectionAgeMs: 300 });
  servers.push(server);
  const client = new GrpcEndpointClient(`127.0.0.1:${server.port}`, { maxAgeMs: 100 });
  const until = Date.now() + 1_200;
  for (let i = 0; Date.now() < until; i++) {
    expect(embedding(await client.call(embed(i)))).toBe(i);
    await sleep(20);
  }
  // Reconnected at least once: sessions arrived from more than one client port.
  expect(counts.peers.size).toBeGreaterThanOrEqual(2);
});

describe('held calls: the call travels while the edge admits it', () => {
  /** A server over `port` that logs, per session message, whether it was a held call, a plain call or a release. */
  async function serveLogged(options: { advertise?: boolean } = {}) {
    const handlers = endpointServiceHandlers(port, SERVED);
    const log: string[] = [];
    const opened = { sessions: 0 };
    const Session = Object.assign((c: ServerDuplexStream<SessionCall__Output, SessionReply>) => {
      opened.sessions++;
      // An older service: it never says it takes held calls.
      if (options.advertise === false) c.sendMetadata = () => undefined;
      c.on('data', (m: SessionCall__Output) => log.push(m.call ? `${m.held ? 'held' : 'call'} ${m.call.request_id}` : 'release'));
      handlers.Session(c);
    }, handlers.Session);
    const server = await startGrpcServer('127.0.0.1:0', { endpoint: { ...handlers, Session } });
    servers.push(server);
    return { log, opened, client: new GrpcEndpointClient(`127.0.0.1:${server.port}`) };
  }
  const deferred = () => {
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    return { promise, resolve, reject };
  };
  /** Whether the port's work for the call has started. */
  const started = (call: EndpointCall) => calls.includes(call.request_id);
  const calls: string[] = [];
  const recording: EndpointPort = {
    call: (call, signal, timing) => (calls.push(call.request_id), port.call(call, signal, timing)),
    stream: (call, signal, timing) => (calls.push(call.request_id), port.stream(call, signal, timing)),
  };
  async function serveRecording() {
    const server = await startGrpcServer('127.0.0.1:0', { endpoint: endpointServiceHandlers(recording, SERVED) });
    servers.push(server);
    return new GrpcEndpointClient(`127.0.0.1:${server.port}`);
  }

  test('on a session whose server takes held calls, the call goes out at once and its work starts only on the release', async () => {
    const client = await serveRecording();
    await client.call(embed(1)); // the session learns that its server takes held calls
    const admission = deferred();
    const call = embed(5);
    const answer = client.call(call, undefined, undefined, admission.promise);
    await sleep(50);
    expect(started(call)).toBe(false);
    admission.resolve();
    expect(embedding(await answer)).toBe(5);
    expect(started(call)).toBe(true);
  });

  test('the held call and its release travel as two messages on one session; streams too', async () => {
    const { log, client } = await serveLogged();
    await client.call(embed(1));
    const admission = deferred();
    const call = embed(2);
    const answer = client.call(call, undefined, undefined, admission.promise);
    await waitFor('the held call', () => log.includes(`held ${call.request_id}`), 2_000, 5);
    expect(log).not.toContain('release');
    admission.resolve();
    expect(embedding(await answer)).toBe(2);
    expect(log.slice(-2)).toEqual([`held ${call.request_id}`, 'release']);

    const streamed = deferred();
    const speech = speak(3);
    const items = (async () => {
      const out: number[] = [];
      for await (const chunk of client.stream(speech, new AbortController().signal, undefined, streamed.promise))
        out.push(...(chunk as Uint8Array));
      return out;
    })();
    await waitFor('the held stream', () => log.includes(`held ${speech.request_id}`), 2_000, 5);
    streamed.resolve();
    expect(await items).toEqual([0, 1, 2]);
    expect(log.slice(-2)).toEqual([`held ${speech.request_id}`, 'release']);
  });

  test("a refused admission fails the call with the admission's error, and the service never starts it", async () => {
    const client = await serveRecording();
    await client.call(embed(1));
    const refusal = errors.rateLimited('Rate limit reached for this API key.', 3);
    const call = embed(6);
    const admission = deferred();
    const answer = client.call(call, undefined, undefined, admission.promise);
    await sleep(20);
    admission.reject(refusal);
    await expect(answer).rejects.toBe(refusal);
    const stream = speak(2);
    await expect(
      (async () => {
        for await (const chunk of client.stream(stream, new AbortController().signal, undefined, Promise.reject(refusal))) void chunk;
      })(),
    ).rejects.toBe(refusal);
    await sleep(50);
    expect(started(call)).toBe(false);
    expect(started(stream)).toBe(false);
    // The client goes on: the next calls are served.
    expect(embedding(await client.call(embed(7)))).toBe(7);
  });

  test('a port that prepares while held gets the call before the release, with the admission to wait for: admitted or refused', async () => {
    /** Per call: whether it reached the port before its admission settled, and how the admission it was given settled. */
    const seen = new Map<string, Promise<string>>();
    const preparing: EndpointPort = {
      preparesWhileHeld: true,
      call: async (call, signal, timing, admission) => {
        seen.set(
          call.request_id,
          admission
            ? admission.then(
                () => 'admitted',
                () => 'refused',
              )
            : Promise.resolve('none'),
        );
        await admission;
        return port.call(call, signal, timing);
      },
      stream: (call, signal, timing) => port.stream(call, signal, timing),
    };
    const server = await startGrpcServer('127.0.0.1:0', { endpoint: endpointServiceHandlers(preparing, SERVED) });
    servers.push(server);
    const client = new GrpcEndpointClient(`127.0.0.1:${server.port}`);
    await client.call(embed(1));

    const admission = deferred();
    const call = embed(8);
    const answer = client.call(call, undefined, undefined, admission.promise);
    await waitFor('the call', () => seen.has(call.request_id), 2_000, 5);
    admission.resolve();
    expect(embedding(await answer)).toBe(8);
    expect(await seen.get(call.request_id)).toBe('admitted');

    const refusal = errors.rateLimited('Rate limit reached for this API key.', 3);
    const denied = deferred();
    const refused = embed(9);
    const failing = client.call(refused, undefined, undefined, denied.promise);
    await waitFor('the refused call', () => seen.has(refused.request_id), 2_000, 5);
    denied.reject(refusal);
    await expect(failing).rejects.toBe(refusal);
    expect(await seen.get(refused.request_id)).toBe('refused');
  });

  test('a server that does not say it takes held calls gets the call only once admitted, as a plain call', async () => {
    const { log, client } = await serveLogged({ advertise: false });
    await client.call(embed(1));
    const admission = deferred();
    const call = embed(8);
    const answer = client.call(call, undefined, undefined, admission.promise);
    await sleep(50);
    expect(log).not.toContain(`held ${call.request_id}`);
    expect(log).not.toContain(`call ${call.request_id}`);
    admission.resolve();
    expect(embedding(await answer)).toBe(8);
    expect(log.at(-1)).toBe(`call ${call.request_id}`);
    expect(log).not.toContain('release');
  });

  test('refused before anything was sent (an older server), the idle session goes back to the pool unharmed', async () => {
    const { log, client } = await serveLogged({ advertise: false });
    await client.call(embed(1));
    const sent = log.length;
    await expect(client.call(embed(2), undefined, undefined, Promise.reject(errors.insufficientBalance(10, 0)))).rejects.toMatchObject({
      status: 402,
    });
    expect(log.length).toBe(sent);
    expect(embedding(await client.call(embed(3)))).toBe(3);
  });

  test('a held call the service refuses while it waits (a bad body) still answers its error after the release, and the session goes on', async () => {
    const { log, opened, client } = await serveLogged();
    await client.call(embed(1));
    const admission = deferred();
    const bad: EndpointCall = { ...embed(0), body: { model: 'm' } };
    const answer = client.call(bad, undefined, undefined, admission.promise);
    await waitFor('the held call', () => log.includes(`held ${bad.request_id}`), 2_000, 5);
    await sleep(20);
    admission.resolve();
    await expect(answer).rejects.toMatchObject({ status: 400 });
    // The release came after the call had ended: dropped, and the same session serves the next call.
    await waitFor('the release', () => log.at(-1) === 'release', 2_000, 5);
    expect(log.slice(-2)).toEqual([`held ${bad.request_id}`, 'release']);
    expect(embedding(await client.call(embed(4)))).toBe(4);
    expect(opened.sessions).toBe(1);
  });

  test('a caller that leaves while its call is held stops it: the service never starts it', async () => {
    const client = await serveRecording();
    await client.call(embed(1));
    const abort = new AbortController();
    const admission = deferred();
    const call = embed(9);
    const answer = client.call(call, abort.signal, undefined, admission.promise);
    await sleep(20);
    abort.abort(new Error('client gone'));
    admission.resolve();
    await expect(answer).rejects.toThrow('client gone');
    await sleep(50);
    expect(started(call)).toBe(false);
  });
});

describe('a caller that leaves: the call is stopped, and what it produced is charged', () => {
  /** Request ids of the calls `metering` has begun (a caller that leaves before its call begins has nothing to charge). */
  const begun = new Set<string>();
  /**
   * Like the runner: a stream that produced one item and is aborted records its usage (the meter's
   * cost, 777) before it ends with the abort; an answer aborted midway, 555. 'deaf' ignores the abort.
   */
  const metering: EndpointPort = {
    call: async (call, signal, meter) => {
      begun.add(call.request_id);
      await untilAborted(call, signal!).catch((err: unknown) => {
        meter!.cost_micros = 555;
        throw err;
      });
      throw new Error('unreachable');
    },
    stream: async function* (call, signal, meter) {
      yield new Uint8Array([1]);
      if ((call.body as { input: string }).input === 'deaf') return void (await sleep(STOP_GRACE_MS * 3));
      await untilAborted(call, signal).catch((err: unknown) => {
        meter!.cost_micros = 777;
        throw err;
      });
    },
  };
  /**
   * A server over `metering`; `stops: false` plays an older service that takes held calls but no stops,
   * `metadataAfterMs` one whose session metadata reaches the client that much after its first call begins.
   */
  async function serveMetering(options: { stops?: boolean; metadataAfterMs?: number } = {}) {
    const handlers = endpointServiceHandlers(metering, SERVED);
    const opened = { sessions: 0 };
    const Session = Object.assign((c: ServerDuplexStream<SessionCall__Output, SessionReply>) => {
      opened.sessions++;
      if (options.stops === false) {
        const send = c.sendMetadata.bind(c);
        c.sendMetadata = (metadata: Metadata) => (metadata.remove(SESSION_STOPS_METADATA), send(metadata));
      }
      if (options.metadataAfterMs !== undefined) {
        const send = c.sendMetadata.bind(c);
        c.sendMetadata = (metadata: Metadata) => void setTimeout(() => send(metadata), options.metadataAfterMs);
      }
      handlers.Session(c);
    }, handlers.Session);
    const server = await startGrpcServer('127.0.0.1:0', { endpoint: { ...handlers, Session } });
    servers.push(server);
    return { opened, client: new GrpcEndpointClient(`127.0.0.1:${server.port}`) };
  }
  /** Reads one item of `call`'s stream, then leaves as the edge does when its client goes: abort, then stop reading. */
  async function leaveAfterOne(client: GrpcEndpointClient, call: EndpointCall, meter: CallMeter): Promise<number> {
    const abort = new AbortController();
    const started = performance.now();
    const failure = await (async () => {
      for await (const chunk of client.stream(call, abort.signal, meter)) {
        expect(chunk).toEqual(new Uint8Array([1]));
        abort.abort(new Error('client gone'));
      }
    })().catch((err: unknown) => err);
    expect(failure).toMatchObject({ message: 'client gone' });
    return performance.now() - started;
  }

  /** Calls an answer that never ends and leaves once the service has begun it, as the edge does when its client goes. */
  async function leaveBegunAnswer(client: GrpcEndpointClient, meter: CallMeter, reason = 'client gone'): Promise<void> {
    const abort = new AbortController();
    const call = embed('hang');
    const answer = client.call(call, abort.signal, meter);
    // Left once the service runs the call: a fixed 30 ms could pass before it began under the full suite's load.
    await waitFor('the call to begin', () => begun.has(call.request_id), 2_000, 5);
    abort.abort(new Error(reason));
    await expect(answer).rejects.toThrow(reason);
  }

  test("a stream whose caller leaves is stopped: its cost reaches the caller's meter before the caller is done, and the session goes on", async () => {
    const { opened, client } = await serveMetering();
    const meter: CallMeter = { upstream_ms: 0 };
    await leaveAfterOne(client, speak(3), meter);
    expect(meter.cost_micros).toBe(777);

    // Stopped by no longer reading (no abort): the same.
    const reading: CallMeter = { upstream_ms: 0 };
    for await (const chunk of client.stream(speak(3), new AbortController().signal, reading)) {
      expect(chunk).toEqual(new Uint8Array([1]));
      break;
    }
    expect(reading.cost_micros).toBe(777);
    expect(opened.sessions).toBe(1);
  });

  test("an answer whose caller leaves is stopped too: the abort's reason, the cost it reported, and the same session after", async () => {
    const { opened, client } = await serveMetering();
    const meter: CallMeter = { upstream_ms: 0 };
    await leaveBegunAnswer(client, meter);
    expect(meter.cost_micros).toBe(555);
    await leaveBegunAnswer(client, { upstream_ms: 0 }, 'gone again');
    expect(opened.sessions).toBe(1);
  });

  test("a caller that leaves a new session's first call before the session's metadata is read still stops it: its cost is known", async () => {
    const { opened, client } = await serveMetering({ metadataAfterMs: 200 });
    const meter: CallMeter = { upstream_ms: 0 };
    await leaveBegunAnswer(client, meter);
    expect(meter.cost_micros).toBe(555);
    // The session goes on: the next call is on it.
    const again: CallMeter = { upstream_ms: 0 };
    await leaveAfterOne(client, speak(3), again);
    expect(again.cost_micros).toBe(777);
    expect(opened.sessions).toBe(1);
  });

  test('an older service whose metadata comes late and says it takes no stops gets its cancel then, not after the grace', async () => {
    const { opened, client } = await serveMetering({ stops: false, metadataAfterMs: 200 });
    const meter: CallMeter = { upstream_ms: 0 };
    const started = performance.now();
    await leaveBegunAnswer(client, meter);
    // The metadata comes 200 ms after the session opened; the grace would be 1,000 ms.
    expect(performance.now() - started).toBeLessThan(STOP_GRACE_MS - 200);
    expect(meter.cost_micros).toBeUndefined();
    await leaveAfterOne(client, speak(3), { upstream_ms: 0 });
    expect(opened.sessions).toBe(2);
  });

  test('an older service that takes no stops gets a cancel, as before: the session is dropped and the cost stays unknown', async () => {
    const { opened, client } = await serveMetering({ stops: false });
    const meter: CallMeter = { upstream_ms: 0 };
    await leaveAfterOne(client, speak(3), meter);
    expect(meter.cost_micros).toBeUndefined();
    const again: CallMeter = { upstream_ms: 0 };
    await leaveAfterOne(client, speak(3), again);
    expect(opened.sessions).toBe(2);
  });

  test('a service that does not answer the stop is cancelled after the grace: the caller is done, the cost unknown', async () => {
    const { opened, client } = await serveMetering();
    const meter: CallMeter = { upstream_ms: 0 };
    const ms = await leaveAfterOne(client, speak('deaf'), meter);
    expect(ms).toBeGreaterThanOrEqual(STOP_GRACE_MS - 50);
    expect(ms).toBeLessThan(STOP_GRACE_MS * 2);
    expect(meter.cost_micros).toBeUndefined();
    await leaveAfterOne(client, speak(3), meter);
    expect(meter.cost_micros).toBe(777);
    expect(opened.sessions).toBe(2);
  });
});

test("a call's body counts against the service's body budget until the call ends: past the process's limit 503, past a key's share 429, small ones served, and served again once the first ends", async () => {
  const MiB = 1024 * 1024;
  const budget = new BodyBudget(4 * MiB);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  // Large calls' inputs are lists of long strings (each at most 200,000 characters), the first saying whether to wait.
  const waiting: EndpointPort = {
    call: async (call, signal) => {
      const { input } = call.body as { input: string | string[] };
      if (typeof input === 'string') return port.call(call, signal);
      if (input[0] === 'wait') await gate;
      return port.call({ ...call, body: { model: 'm', input: '1' } }, signal);
    },
    stream: port.stream,
  };
  const server = await startGrpcServer('127.0.0.1:0', { endpoint: endpointServiceHandlers(waiting, { ...SERVED, bodyBudget: budget }) });
  servers.push(server);
  const client = new GrpcEndpointClient(`127.0.0.1:${server.port}`);
  const large = (first: string, mib: number, key: string): EndpointCall => ({
    ...embed(first),
    key_id: key,
    body: { model: 'm', input: [first, ...Array<string>((mib * MiB) / 131_072).fill('x'.repeat(131_072))], encoding_format: 'base64' },
  });
  const first = client.call(large('wait', 3, 'k1'));
  await waitFor('the first body counted', () => budget.heldBytes() >= 3 * MiB, 5_000, 5);
  await expect(client.call(large('go', 1, 'k2'))).rejects.toMatchObject({ status: 503, code: 'service_unavailable', retryAfter: 1 });
  await expect(client.call(large('go', 1, 'k1'))).rejects.toMatchObject({ status: 429, code: 'Throttling.RateQuota', retryAfter: 1 });
  expect(embedding(await client.call({ ...embed(7), key_id: 'k2' }))).toBe(7);
  release();
  expect(embedding(await first)).toBe(1);
  expect(budget.heldBytes()).toBe(0);
  expect(embedding(await client.call(large('go', 3, 'k2')))).toBe(1);
  expect(budget.heldBytes()).toBe(0);
});
