/**
 * KafkaEventBus.subscribeBatch against the Kafka wire protocol (the mock cluster of jest global
 * setup): consecutive messages of a partition arrive together, in order and sliced to maxBatch, with
 * their keys and headers; a throwing handler gets the same slice again and nothing after it first.
 * With lingerMs, a consumer behind its partition gathers several fetches into one hand-over, and
 * nothing gathered is committed before it was handed over. (The mock answers a fetch with one produced record batch, so
 * the tests produce several messages per request, as a busy producer's batching would, or one per
 * request where they show gathering across fetches.)
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel, type Message } from 'kafkajs';
import { kafkaBrokers, uniqueName, waitFor } from '@unigate/testing';
import { createLogger, KafkaEventBus, kafkaConsumerLag, type BusEvent } from '@unigate/platform';

const logger = createLogger('kafka-event-bus-batch-test', 'silent');
const buses: KafkaEventBus[] = [];

function newBus(topicPrefix: string): KafkaEventBus {
  const bus = new KafkaEventBus({
    brokers: kafkaBrokers(),
    clientId: 'platform-batch-test',
    topicPrefix,
    logger,
    retryBackoff: { initialMs: 50, maxMs: 200 },
  });
  buses.push(bus);
  return bus;
}

/** `messages` in ONE send, by a producer of its own. */
async function sendTogether(topic: string, messages: Message[]): Promise<void> {
  const producer = new Kafka({ clientId: 'batch-producer', brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).producer();
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, messages });
  } finally {
    await producer.disconnect();
  }
}

/** n messages for one key in ONE produce request (one record batch). */
function produceTogether(topic: string, key: string, from: number, n: number): Promise<void> {
  return sendTogether(
    topic,
    Array.from({ length: n }, (_, i) => ({ key, value: JSON.stringify({ n: from + i }), headers: { seq: String(from + i) } })),
  );
}

/** The offset committed for `group` on `topic` (Kafka's names: prefixed), summed over partitions that have one. */
async function committedOf(bus: KafkaEventBus, group: string, topic: string): Promise<number> {
  const admin = new Kafka({ clientId: 'batch-admin', brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const [offsets] = await admin.fetchOffsets({ groupId: bus.name(group), topics: [bus.name(topic)] });
    return offsets.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
  } finally {
    await admin.disconnect();
  }
}

/** The mock cluster creates every topic with this many partitions (INFRA.md). */
const PARTITIONS = 4;

/** One message to each partition of `topic`, in ONE send. */
function produceToEveryPartition(topic: string): Promise<void> {
  return sendTogether(
    topic,
    Array.from({ length: PARTITIONS }, (_, partition) => ({ partition, value: JSON.stringify({ n: partition }) })),
  );
}

/** `unigate_kafka_consumer_lag` of a group on a topic (Kafka's names: prefixed), summed over partitions. */
async function lagOf(bus: KafkaEventBus, group: string, topic: string): Promise<number | undefined> {
  const series = (await kafkaConsumerLag.get()).values.filter(
    (v) => v.labels.group === bus.name(group) && v.labels.topic === bus.name(topic),
  );
  return series.length === 0 ? undefined : series.reduce((sum, v) => sum + v.value, 0);
}

afterEach(async () => {
  await Promise.all(buses.splice(0).map((b) => b.close()));
});

test('consecutive messages of a partition arrive together, in order, at most maxBatch at a time', async () => {
  const prefix = uniqueName('kbatch');
  const bus = newBus(prefix);
  const calls: BusEvent[][] = [];
  await produceTogether(bus.name('things'), 'k', 0, 40);
  await bus.subscribeBatch('things', 'batchers', async (events) => void calls.push(events), { maxBatch: 16 });
  await bus.publish('things', 'k', { n: 40 }, { seq: '40' });
  await waitFor('41 events', () => calls.flat().length >= 41);

  const events = calls.flat();
  expect(events.map((e) => (e.payload as { n: number }).n)).toEqual(Array.from({ length: 41 }, (_, i) => i));
  expect(calls.every((c) => c.length >= 1 && c.length <= 16)).toBe(true);
  expect(calls.some((c) => c.length === 16)).toBe(true);
  for (const e of events) {
    expect(e.meta).toMatchObject({ topic: 'things', key: 'k' });
    expect(e.meta.headers.seq).toBe(String((e.payload as { n: number }).n));
  }
});

test('a handler that throws gets the same slice again, and later messages wait their turn', async () => {
  const prefix = uniqueName('kbatch');
  const bus = newBus(prefix);
  const calls: number[][] = [];
  const lags: (number | undefined)[] = [];
  let failuresLeft = 1;
  await produceTogether(bus.name('flaky'), 'k', 0, 5);
  await bus.subscribeBatch('flaky', 'batchers', async (events) => {
    const ns = events.map((e) => (e.payload as { n: number }).n);
    calls.push(ns);
    lags.push(await lagOf(bus, 'batchers', 'flaky'));
    if (failuresLeft-- > 0) throw new Error('transient');
  });
  await waitFor('the retry', () => calls.length >= 2);
  await produceTogether(bus.name('flaky'), 'k', 5, 3);
  await waitFor('all eight', () => new Set(calls.slice(1).flat()).size >= 8);

  expect(calls[0]).toEqual([0, 1, 2, 3, 4]);
  expect(calls[1]).toEqual([0, 1, 2, 3, 4]);
  expect(calls.slice(1).flat()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  // The lag gauge: none before the first fetch was handled; the failed slice still counted after it.
  expect(lags.slice(0, 2)).toEqual([undefined, 5]);
  await waitFor('no lag once all eight are handled', async () => (await lagOf(bus, 'batchers', 'flaky')) === 0);
});

describe('lingerMs', () => {
  /**
   * Subscribes with `lingerMs`, produces `first` messages in one request, then one more once they were
   * handed over. The times of the next handler call: since the call that completed the first ones,
   * and since the one more was published.
   */
  async function nextCall(first: number, lingerMs: number | undefined) {
    const bus = newBus(uniqueName('klinger'));
    await bus.connect(); // the producer's connection is not part of any gap
    const calls: number[][] = [];
    let firstDone = 0;
    let next = 0;
    await bus.subscribeBatch(
      'lingering',
      'lingerers',
      async (events) => {
        calls.push(events.map((e) => (e.payload as { n: number }).n));
        const count = calls.flat().length;
        if (count === first) firstDone = performance.now();
        if (count > first) next = performance.now();
      },
      { maxBatch: 16, lingerMs },
    );
    await produceTogether(bus.name('lingering'), 'k', 0, first);
    await waitFor('the first fetch', () => firstDone > 0);
    await bus.publish('lingering', 'k', { n: first }, {});
    const published = performance.now();
    await waitFor('the message after it', () => next > 0);
    return { calls, sinceFirstMs: next - firstDone, sincePublishedMs: next - published };
  }

  test('after a fetch smaller than maxBatch that caught up, the next one waits lingerMs', async () => {
    const { calls, sinceFirstMs } = await nextCall(3, 1_000);
    expect(calls).toEqual([[0, 1, 2], [3]]);
    expect(sinceFirstMs).toBeGreaterThanOrEqual(990);
  });

  // A fetch smaller than maxBatch is not the end of the partition: here each fetch holds one produced
  // batch of two events. With a wait after every fetch, six of them would take five waits (10 s).
  test('a consumer behind the end of its partition gathers the backlog into one hand-over, without waiting', async () => {
    const bus = newBus(uniqueName('klinger'));
    const topic = bus.name('backlog');
    for (let i = 0; i < 6; i++) await produceTogether(topic, 'k', 2 * i, 2);
    const calls: number[][] = [];
    let handedAt = 0;
    const committedAtHandOver: number[] = [];
    const lagAtHandOver: (number | undefined)[] = [];
    await bus.subscribeBatch(
      'backlog',
      'lingerers',
      async (events) => {
        handedAt = performance.now();
        // Six fetches were resolved before this call: none of them may be committed yet, and the lag
        // gauge counts every gathered event (as of the fifth fetch: the sixth's is set after it).
        committedAtHandOver.push(await committedOf(bus, 'lingerers', 'backlog'));
        lagAtHandOver.push(await lagOf(bus, 'lingerers', 'backlog'));
        calls.push(events.map((e) => (e.payload as { n: number }).n));
      },
      { maxBatch: 16, lingerMs: 2_000 },
    );
    const subscribed = performance.now();
    await waitFor('the whole backlog', () => calls.flat().length >= 12, 10_000);
    // The mock answered one produced batch per fetch: six fetches, one hand-over, as soon as it caught up.
    expect(calls).toEqual([Array.from({ length: 12 }, (_, i) => i)]);
    expect(handedAt - subscribed).toBeLessThan(1_500); // not after a 2 s wait (26 ms here)
    expect(committedAtHandOver).toEqual([0]);
    expect(lagAtHandOver).toEqual([12]);
    await waitFor('no lag', async () => (await lagOf(bus, 'lingerers', 'backlog')) === 0);
    await waitFor('all twelve committed', async () => (await committedOf(bus, 'lingerers', 'backlog')) === 12);
  });

  test('events produced one by one during the wait are fetched one by one after it and handed over together', async () => {
    const bus = newBus(uniqueName('klinger'));
    await bus.connect();
    const calls: number[][] = [];
    // Taken in the handler: a time taken when a poll saw the call carries the poll's delay.
    const handedAt: number[] = [];
    await bus.subscribeBatch(
      'window',
      'lingerers',
      async (events) => {
        handedAt.push(performance.now());
        calls.push(events.map((e) => (e.payload as { n: number }).n));
      },
      { maxBatch: 16, lingerMs: 3_000 },
    );
    await bus.publish('window', 'k', { n: 0 }, {});
    await waitFor('the first event, at once', () => calls.length === 1);
    await waitFor('its commit', async () => (await committedOf(bus, 'lingerers', 'window')) === 1);
    // Three produce requests: three fetches on the mock.
    for (let n = 1; n <= 3; n++) await produceTogether(bus.name('window'), 'k', n, 1);
    await sleep(1_000);
    expect(calls).toHaveLength(1);
    expect(await committedOf(bus, 'lingerers', 'window')).toBe(1);
    await waitFor('the wait’s end', () => calls.length === 2, 10_000);
    expect(handedAt[1] - handedAt[0]).toBeGreaterThanOrEqual(2_990);
    expect(calls).toEqual([[0], [1, 2, 3]]);
    await waitFor('all four committed', async () => (await committedOf(bus, 'lingerers', 'window')) === 4);
  });

  test('a throwing handler gets the gathered events again, and those gathered after them come later', async () => {
    const bus = newBus(uniqueName('klinger'));
    await bus.connect();
    const calls: number[][] = [];
    const lags: (number | undefined)[] = [];
    let failuresLeft = 1;
    await bus.subscribeBatch(
      'flaky',
      'lingerers',
      async (events) => {
        calls.push(events.map((e) => (e.payload as { n: number }).n));
        lags.push(await lagOf(bus, 'lingerers', 'flaky'));
        if (failuresLeft-- > 0) throw new Error('transient');
      },
      { maxBatch: 16, lingerMs: 300 },
    );
    await produceTogether(bus.name('flaky'), 'k', 0, 3);
    await waitFor('the failure', () => calls.length >= 1);
    for (let n = 3; n < 6; n++) await produceTogether(bus.name('flaky'), 'k', n, 1);
    await waitFor('all six handed over', () => new Set(calls.slice(1).flat()).size >= 6, 10_000);
    expect(calls[0]).toEqual([0, 1, 2]);
    expect(calls[1].slice(0, 3)).toEqual([0, 1, 2]);
    // In order, each once after the failure.
    expect(calls.slice(1).flat()).toEqual([0, 1, 2, 3, 4, 5]);
    // Events fetched and gathered are lag until settled: the gauge counts at least what is being handed
    // over again (the failed three were counted as consumed once fetched, and the gauge read 0 here).
    expect(lags[1]).toBeGreaterThanOrEqual(calls[1].length);
    await waitFor('all six committed', async () => (await committedOf(bus, 'lingerers', 'flaky')) === 6);
    await waitFor('no lag', async () => (await lagOf(bus, 'lingerers', 'flaky')) === 0);
  });

  test('closing cuts the wait short; what was not handed over is not committed and goes to the next consumer', async () => {
    const prefix = uniqueName('klinger');
    const bus = newBus(prefix);
    await bus.connect();
    const calls: number[][] = [];
    await bus.subscribeBatch('closing', 'lingerers', async (events) => void calls.push(events.map((e) => (e.payload as { n: number }).n)), {
      maxBatch: 16,
      lingerMs: 60_000,
    });
    await bus.publish('closing', 'k', { n: 0 }, {});
    await waitFor('the first event', () => calls.length === 1);
    for (let n = 1; n <= 2; n++) await produceTogether(bus.name('closing'), 'k', n, 1);
    const closing = performance.now();
    await bus.close();
    expect(performance.now() - closing).toBeLessThan(10_000);
    expect(calls).toEqual([[0]]);
    expect(await committedOf(bus, 'lingerers', 'closing')).toBe(1);
    const next: number[] = [];
    await newBus(prefix).subscribeBatch(
      'closing',
      'lingerers',
      async (events) => void next.push(...events.map((e) => (e.payload as { n: number }).n)),
      {
        maxBatch: 16,
        lingerMs: 50,
      },
    );
    await waitFor('the two left', () => next.length >= 2, 15_000);
    expect(next).toEqual([1, 2]);
  });

  // One worker would handle one partition's batch, wait, then the next (each ~1 s apart here).
  test("the waits after a fetch's partitions overlap, and their handlers still run one at a time", async () => {
    const bus = newBus(uniqueName('klinger'));
    const handledAt: number[] = [];
    let running = 0;
    let mostRunning = 0;
    await bus.subscribeBatch(
      'spread',
      'lingerers',
      async (events) => {
        mostRunning = Math.max(mostRunning, ++running);
        await sleep(20); // another partition's handler would start meanwhile if they ran at once
        handledAt.push(...events.map(() => performance.now()));
        running--;
      },
      { maxBatch: 16, lingerMs: 1_000 },
    );
    await produceToEveryPartition(bus.name('spread'));
    await waitFor('an event of every partition', () => handledAt.length >= PARTITIONS);
    expect(handledAt).toHaveLength(PARTITIONS);
    expect(Math.max(...handledAt) - Math.min(...handledAt)).toBeLessThan(500);
    expect(mostRunning).toBe(1);
  });

  // The mock broker holds an empty fetch for the harness's 100 ms and answers only then: without a
  // linger the message comes within about two of those after it was published.
  test('without lingerMs, or after a full fetch, the next one comes at once', async () => {
    expect((await nextCall(3, undefined)).sincePublishedMs).toBeLessThan(900);
    const full = await nextCall(40, 1_000);
    expect(full.calls.flat()).toEqual(Array.from({ length: 41 }, (_, i) => i));
    expect(full.sincePublishedMs).toBeLessThan(900);
  });
});
