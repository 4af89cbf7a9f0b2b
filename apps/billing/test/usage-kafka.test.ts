/**
 * usage.recorded through the real Kafka wire protocol (the mock cluster of jest global setup) into the
 * billing consumer: duplicates land once, and a consumer stopped mid-stream and restarted loses
 * nothing and bills nothing twice.
 */
import { TOPICS } from '@unigate/contracts';
import { KafkaEventBus, type EventBus, type EventHandler } from '@unigate/platform';
import { kafkaBrokers, uniqueName } from '@unigate/testing';
import { balanceMicros, ledgerCount, logger, redisDomain, startHarness, usageEvent, waitFor, type Harness } from './harness';

let h: Harness;
const buses: KafkaEventBus[] = [];
beforeAll(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await Promise.all(buses.splice(0).map((b) => b.close()));
});
afterAll(() => h.close());

function kafkaBus(topicPrefix: string): KafkaEventBus {
  const bus = new KafkaEventBus({
    brokers: kafkaBrokers(),
    clientId: 'billing-test',
    topicPrefix,
    logger,
    retryBackoff: { initialMs: 50, maxMs: 500 },
  });
  buses.push(bus);
  return bus;
}

/** The real bus, with every delivery slowed down so a stop lands in the middle of the stream. */
function slowed(inner: EventBus, delayMs: number): EventBus {
  const slow =
    (handler: EventHandler): EventHandler =>
    async (payload, meta) => {
      await new Promise((r) => setTimeout(r, delayMs));
      await handler(payload, meta);
    };
  return {
    publish: (...args) => inner.publish(...args),
    subscribe: (topic, group, handler) => inner.subscribe(topic, group, slow(handler)),
    subscribeAll: (group, handlers) =>
      inner.subscribeAll(group, Object.fromEntries(Object.entries(handlers).map(([topic, handler]) => [topic, slow(handler)]))),
    close: () => inner.close(),
  };
}

test('the same usage event delivered twice lands in the ledger exactly once', async () => {
  const prefix = uniqueName('billing_usage');
  const bus = kafkaBus(prefix);
  const domain = redisDomain(h, bus);
  await domain.start();
  const acc = await domain.billing.createAccount('kafka-dup', 1_000_000);

  const ev = usageEvent(acc.id, { cost_micros: 250_000 });
  await bus.publish(TOPICS.usageRecorded, acc.id, ev);
  await bus.publish(TOPICS.usageRecorded, acc.id, ev);
  // Same key → same partition → handled in order: once the sentinel is settled, both copies were handled.
  const sentinel = usageEvent(acc.id, { cost_micros: 1 });
  await bus.publish(TOPICS.usageRecorded, acc.id, sentinel);
  await waitFor('the sentinel', async () => (await ledgerCount(h.ds, acc.id)) >= 2);

  expect(await ledgerCount(h.ds, acc.id)).toBe(2);
  expect(await balanceMicros(h.ds, acc.id)).toBe(1_000_000 - 250_000 - 1);
});

test('a consumer stopped mid-stream and restarted loses nothing and duplicates nothing', async () => {
  const prefix = uniqueName('billing_restart');
  const producer = kafkaBus(prefix);
  const acc = await h.domain.billing.createAccount('kafka-restart', 10_000_000);
  const firstBus = kafkaBus(prefix);
  const first = redisDomain(h, slowed(firstBus, 100));
  await first.start();

  const total = 40;
  const events = Array.from({ length: total }, () => usageEvent(acc.id, { cost_micros: 1_000 }));
  for (const ev of events.slice(0, 30)) await producer.publish(TOPICS.usageRecorded, acc.id, ev);
  await waitFor('some settlements', async () => (await ledgerCount(h.ds, acc.id)) >= 5);
  await firstBus.close(); // the first consumer stops with work left (and maybe some uncommitted)
  const settledBeforeStop = await ledgerCount(h.ds, acc.id);
  expect(settledBeforeStop).toBeLessThan(30);

  // Published while nobody consumes; a replayed batch would re-send some of the first 30 too.
  for (const ev of events.slice(30)) await producer.publish(TOPICS.usageRecorded, acc.id, ev);
  await producer.publish(TOPICS.usageRecorded, acc.id, events[0]);

  const second = redisDomain(h, kafkaBus(prefix));
  await second.start();
  await waitFor('every event', async () => (await ledgerCount(h.ds, acc.id)) >= total, 60_000);

  expect(await ledgerCount(h.ds, acc.id)).toBe(total);
  expect(await balanceMicros(h.ds, acc.id)).toBe(10_000_000 - total * 1_000);
  const rows: Array<{ request_id: string }> = await h.ds.query(`SELECT request_id FROM billing.ledger_entries WHERE account_id = $1`, [
    acc.id,
  ]);
  expect(new Set(rows.map((r) => r.request_id))).toEqual(new Set(events.map((e) => e.request_id)));
});
