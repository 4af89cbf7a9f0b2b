/**
 * KafkaEventBus against the real Kafka wire protocol (librdkafka's mock cluster started by jest
 * global setup). Each test uses its own topic prefix, so runs never see each other's messages.
 */
import { createServer, type AddressInfo } from 'node:net';
import { kafkaBrokers, uniqueName, waitFor } from '@unigate/testing';
import { Kafka, logLevel } from 'kafkajs';
import { createLogger, KafkaEventBus, type EventMeta } from '@unigate/platform';

const logger = createLogger('kafka-event-bus-test', 'silent');
const buses: KafkaEventBus[] = [];

function newBus(topicPrefix: string, log = logger, lingerMs?: number): KafkaEventBus {
  const bus = new KafkaEventBus({
    brokers: kafkaBrokers(),
    clientId: 'platform-test',
    topicPrefix,
    logger: log,
    retryBackoff: { initialMs: 50, maxMs: 200 },
    lingerMs,
  });
  buses.push(bus);
  return bus;
}

afterEach(async () => {
  await Promise.all(buses.splice(0).map((b) => b.close()));
});

test('publish → consume carries payload, key and headers, and the bus reports ready', async () => {
  const bus = newBus(uniqueName('kbus'));
  const seen: Array<{ payload: unknown; meta: EventMeta }> = [];
  await bus.connect();
  // Published before the group first joins: a new group starts from the beginning, so it is not lost.
  await bus.publish('things', 'k-1', { n: 1 }, { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
  await bus.subscribe('things', 'group-a', async (payload, meta) => {
    seen.push({ payload, meta });
  });
  await bus.publish('things', 'k-2', { n: 2 });
  await waitFor('two messages', () => seen.length >= 2);

  // Two keys may sit on two partitions: no order between them.
  const first = seen.find((s) => s.meta.key === 'k-1');
  expect(seen.map((s) => s.payload)).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }]));
  expect(first?.payload).toEqual({ n: 1 });
  expect(first?.meta.topic).toBe('things');
  expect(first?.meta.headers.traceparent).toBe('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
  expect(bus.isReady()).toBe(true);
  await expect(bus.checkReady()).resolves.toBeUndefined();

  await bus.close();
  expect(bus.isReady()).toBe(false);
});

test('a handler that throws gets the same message again, and later messages wait their turn', async () => {
  const bus = newBus(uniqueName('kbus'));
  const calls: number[] = [];
  let failuresLeft = 1;
  await bus.subscribe('flaky', 'group-b', async (payload) => {
    const { n } = payload as { n: number };
    calls.push(n);
    if (n === 1 && failuresLeft-- > 0) throw new Error('transient');
  });
  // One key → one partition → strict order.
  await bus.publish('flaky', 'same-key', { n: 1 });
  await bus.publish('flaky', 'same-key', { n: 2 });
  await waitFor('message 2 after the retry', () => calls.includes(2));

  expect(calls).toEqual([1, 1, 2]);
});

test('two consumers in one group share the partitions and together see every message', async () => {
  const prefix = uniqueName('kbus');
  // Warnings (a consumer crash and restart, a slow join) are kept to explain a failure.
  const warnings: string[] = [];
  const log = createLogger('kafka-event-bus-test', 'warn', { write: (line: string) => void warnings.push(line) });
  const a = newBus(prefix, log);
  const b = newBus(prefix, log);
  const byA = new Set<number>();
  const byB = new Set<number>();
  // Join together so the group settles once (each join costs the mock ~3 s).
  await Promise.all([
    a.subscribe('shared', 'workers', async (p) => void byA.add((p as { n: number }).n)),
    b.subscribe('shared', 'workers', async (p) => void byB.add((p as { n: number }).n)),
  ]);
  // The group may first settle with one member owning every partition and rebalance when the other
  // joins; keep publishing (bounded) until both members have been handed messages. A member's join can
  // fail (the mock refuses a late SyncGroup, which stops a kafkajs consumer; the bus then starts a new
  // one after its restart backoff), hence 45 s.
  let total = 0;
  const deadline = Date.now() + 45_000;
  while ((byA.size === 0 || byB.size === 0) && Date.now() < deadline) {
    for (let i = 0; i < 20; i++, total++) await a.publish('shared', `key-${total}`, { n: total });
    await new Promise((r) => setTimeout(r, 500));
  }
  await waitFor('every message', () => new Set([...byA, ...byB]).size === total);

  // Shared, not broadcast: each member handled some of the messages, and they did not both get all.
  expect({ byA: byA.size > 0, byB: byB.size > 0, warnings }).toEqual({ byA: true, byB: true, warnings: expect.any(Array) });
  const both = [...byA].filter((n) => byB.has(n)).length;
  expect(both).toBeLessThan(total / 2);
  expect(new Set([...byA, ...byB]).size).toBe(total);
}, 90_000);

test('a consumer that kafkajs stops after a non-retriable error is replaced, and its events are still handled', async () => {
  // librdkafka's mock answers a follower's SyncGroup that arrives after the leader's with INVALID_REQUEST
  // (seen in about one run in four of the test above); kafkajs treats that as fatal and stops the
  // consumer for good. Here the first join fails that way on purpose.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const ConsumerGroup = require('kafkajs/src/consumer/consumerGroup') as { prototype: { joinAndSync: () => Promise<void> } };
  const { KafkaJSProtocolError } = require('kafkajs/src/errors') as { KafkaJSProtocolError: new (e: unknown) => Error };
  const { createErrorFromCode } = require('kafkajs/src/protocol/error') as { createErrorFromCode: (code: number) => unknown };
  /* eslint-enable @typescript-eslint/no-require-imports */
  const join = jest
    .spyOn(ConsumerGroup.prototype, 'joinAndSync')
    .mockImplementationOnce(() => Promise.reject(new KafkaJSProtocolError(createErrorFromCode(42))));
  try {
    const lines: string[] = [];
    const bus = newBus(uniqueName('kbus'), createLogger('kafka-event-bus-test', 'warn', { write: (l: string) => void lines.push(l) }));
    const seen: unknown[] = [];
    await bus.subscribe('fatal', 'group-fatal', async (payload) => void seen.push(payload));
    expect(bus.isReady()).toBe(false);
    await bus.publish('fatal', 'k', { n: 1 });
    await waitFor('the event, handled by the replacement consumer', () => seen.length === 1);
    expect(seen).toEqual([{ n: 1 }]);
    expect(join.mock.calls.length).toBeGreaterThanOrEqual(2);
    await waitFor('ready again', () => bus.isReady());
    const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages).toEqual(expect.arrayContaining(['kafka consumer crashed', 'kafka consumer stopped; starting a new one']));
  } finally {
    join.mockRestore();
  }
}, 60_000);

test("subscribeAll: one consumer for several topics, each event to its own topic's handler", async () => {
  const made = jest.spyOn(Kafka.prototype, 'consumer');
  try {
    const bus = newBus(uniqueName('kbus'));
    const seen: Array<{ handler: string; topic: string; n: unknown }> = [];
    const record = (handler: string) => async (payload: unknown, meta: EventMeta) => {
      seen.push({ handler, topic: meta.topic, n: (payload as { n: unknown }).n });
    };
    await bus.subscribeAll('group-all', { alpha: record('alpha'), beta: record('beta') });
    expect(made).toHaveBeenCalledTimes(1);
    await bus.publish('alpha', 'k', { n: 1 });
    await bus.publish('beta', 'k', { n: 2 });
    await bus.publish('alpha', 'k', { n: 3 });
    await waitFor('three events', () => seen.length >= 3);
    expect(seen).toHaveLength(3);
    expect(seen).toEqual(
      expect.arrayContaining([
        { handler: 'alpha', topic: 'alpha', n: 1 },
        { handler: 'beta', topic: 'beta', n: 2 },
        { handler: 'alpha', topic: 'alpha', n: 3 },
      ]),
    );
    expect(bus.isReady()).toBe(true);
  } finally {
    made.mockRestore();
  }
}, 60_000);

test('an idle bus does not spin: its request queues check for pending requests only when a request comes or goes', async () => {
  // kafkajs 2.2.4 re-arms a 1 ms timer on every broker connection forever (kafkajs-idle-loop.ts).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const RequestQueue = require('kafkajs/src/network/requestQueue') as {
    prototype: { checkPendingRequests: () => void; sendSocketRequest: (r: unknown) => void };
  };
  const checks = jest.spyOn(RequestQueue.prototype, 'checkPendingRequests');
  const sends = jest.spyOn(RequestQueue.prototype, 'sendSocketRequest');
  try {
    const bus = newBus(uniqueName('kbus'));
    await bus.subscribe('quiet', 'group-idle', async () => undefined);
    await bus.publish('quiet', 'k', { n: 1 });
    checks.mockClear();
    sends.mockClear();
    // Fetches (every 100 ms per broker here) and heartbeats keep going while nothing is published.
    await new Promise((r) => setTimeout(r, 2_000));
    // Each finished request checks its queue once (and a queued one once more); the loop checked
    // about once per millisecond per connection: thousands in two seconds.
    expect(sends.mock.calls.length).toBeGreaterThan(0);
    expect(checks.mock.calls.length).toBeLessThanOrEqual(2 * sends.mock.calls.length + 10);
  } finally {
    checks.mockRestore();
    sends.mockRestore();
  }
}, 60_000);

test('a connection checks its requests for a timeout only while one is in flight', async () => {
  // kafkajs 2.2.4 checks every 100 ms on every connection for as long as it is connected (kafkajs-idle-loop.ts).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const RequestQueue = require('kafkajs/src/network/requestQueue') as {
    prototype: { sendSocketRequest: (r: unknown) => void };
  };
  interface Queue {
    inflight: Map<number, unknown>;
  }
  // Per connection: requests sent, and timeout checks that found nothing in flight.
  const seen = new Map<Queue, { sends: number; idleChecks: number }>();
  const send = RequestQueue.prototype.sendSocketRequest;
  const sends = jest.spyOn(RequestQueue.prototype, 'sendSocketRequest').mockImplementation(function (this: Queue, request: unknown) {
    let counts = seen.get(this);
    if (!counts) {
      const tally = { sends: 0, idleChecks: 0 };
      counts = tally;
      seen.set(this, tally);
      // The timeout check is the queue's only caller of inflight.forEach.
      const forEach = this.inflight.forEach.bind(this.inflight);
      this.inflight.forEach = (fn) => {
        if (this.inflight.size === 0) tally.idleChecks++;
        forEach(fn);
      };
    }
    counts.sends++;
    send.call(this, request);
  });
  try {
    const bus = newBus(uniqueName('kbus'));
    await bus.subscribe('quiet', 'group-timeouts', async () => undefined);
    await bus.publish('quiet', 'k', { n: 1 });
    for (const counts of seen.values()) Object.assign(counts, { sends: 0, idleChecks: 0 });
    await new Promise((r) => setTimeout(r, 2_000));
    const counts = [...seen.values()];
    // Among them the producer's connection, idle since the publish: it checked ~20 times in 2 s.
    expect(counts.some((c) => c.sends === 0)).toBe(true);
    // The check stops the first time it finds nothing in flight: once per request at most.
    for (const c of counts) expect(c.idleChecks).toBeLessThanOrEqual(c.sends + 1);
  } finally {
    sends.mockRestore();
  }
}, 60_000);

test('a request the broker never answers still times out', async () => {
  newBus(uniqueName('kbus')); // loads kafkajs with kafkajs-idle-loop.ts's fix, as every service does
  // A TCP server that accepts and never answers: the connection comes up, its first request hangs.
  const silent = createServer(() => undefined);
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const port = (silent.address() as AddressInfo).port;
  const admin = new Kafka({
    clientId: 'platform-test-timeout',
    brokers: [`127.0.0.1:${port}`],
    requestTimeout: 300,
    retry: { retries: 0 },
    logCreator: () => () => undefined,
  }).admin();
  try {
    const started = Date.now();
    await expect(admin.connect()).rejects.toThrow(/timed out/i);
    expect(Date.now() - started).toBeLessThan(5_000);
  } finally {
    await admin.disconnect();
    silent.close();
  }
}, 15_000);

test('lingering: a message on an idle bus goes at once; those that follow wait for the window to end (or close) and go together', async () => {
  // A window far longer than the test: what is acknowledged early went without waiting for it.
  const prefix = uniqueName('kbus');
  const bus = newBus(prefix, logger, 600_000);
  const seen: unknown[] = [];
  await bus.subscribe('lingered', 'group-linger', async (payload) => {
    seen.push(payload);
  });
  await bus.publish('lingered', 'k', { n: 1 });
  let acknowledged = 0;
  const later = [2, 3].map((n) => bus.publish('lingered', 'k', { n }).then(() => acknowledged++));
  await new Promise((r) => setTimeout(r, 500));
  expect(acknowledged).toBe(0);
  expect(seen).toEqual([{ n: 1 }]);
  // Closing sends what waits (SIGTERM loses nothing) and leaves no window timer behind.
  await bus.close();
  await Promise.all(later);
  expect(acknowledged).toBe(2);
  // A new group reads the topic from its start.
  const reader = newBus(prefix);
  const read: unknown[] = [];
  await reader.subscribe('lingered', 'group-linger-reader', async (payload) => {
    read.push(payload);
  });
  await waitFor('all three messages', () => read.length >= 3);
  expect(read).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
}, 60_000);

test('an own group commits nothing, starts each membership at the end and says when it has, and still hears what comes after', async () => {
  const prefix = uniqueName('kbus');
  const committed = async (bus: KafkaEventBus) => {
    const admin = new Kafka({ clientId: 'own-group-admin', brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const [offsets] = await admin.fetchOffsets({ groupId: bus.name('edge-1'), topics: [bus.name('stale')] });
      return offsets.partitions.filter((p) => Number(p.offset) >= 0);
    } finally {
      await admin.disconnect();
    }
  };
  const run = async (before: number, after: number) => {
    const bus = newBus(prefix);
    const seen: number[] = [];
    let joins = 0;
    await bus.publish('stale', 'k', { n: before });
    await bus.subscribeAll(
      'edge-1',
      { stale: async (payload) => void seen.push((payload as { n: number }).n) },
      { ownGroup: { onJoin: () => void joins++ } },
    );
    await waitFor('the membership to start', () => joins === 1);
    await bus.publish('stale', 'k', { n: after });
    await waitFor('the event published after it', () => seen.length >= 1);
    // A clean leave would commit what was handled, were anything committed.
    await bus.close();
    return { seen, joins };
  };

  // Published before the first membership, and between the two: not delivered, and each start told.
  expect(await run(1, 2)).toEqual({ seen: [2], joins: 1 });
  expect(await run(3, 4)).toEqual({ seen: [4], joins: 1 });
  expect(await committed(newBus(prefix))).toEqual([]);
}, 60_000);
