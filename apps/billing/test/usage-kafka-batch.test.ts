/**
 * The billing consumer on Kafka settles what one fetch returned in one transaction: a burst of usage
 * events (duplicates among them) lands exactly once with every hold released; and when a batch
 * transaction fails, its events are settled one by one, still exactly once. (The mock broker answers
 * a fetch with one produced record batch, so the events are produced in one request.)
 */
import { randomUUID } from 'node:crypto';
import { TOPICS, type UsageRecorded } from '@unigate/contracts';
import { KafkaEventBus } from '@unigate/platform';
import { kafkaBrokers, uniqueName } from '@unigate/testing';
import { Kafka, logLevel } from 'kafkajs';
import { hold, ledgerCount, logger, readMoney, redisDomain, startHarness, usageEvent, waitFor, type Harness } from './harness';

let h: Harness;
const buses: KafkaEventBus[] = [];
beforeAll(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await Promise.all(buses.splice(0).map((b) => b.close()));
});
afterAll(() => h.close());

async function produceTogether(topic: string, events: UsageRecorded[]): Promise<void> {
  const producer = new Kafka({ clientId: 'usage-batch', brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).producer();
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, messages: events.map((e) => ({ key: e.account_id, value: JSON.stringify(e) })) });
  } finally {
    await producer.disconnect();
  }
}

/** Counts ledger inserts of more than one row (a sequence: it keeps counting across rollbacks). */
async function countMultiRowInserts(refuse: boolean): Promise<() => Promise<number>> {
  await h.ds.query(`CREATE SEQUENCE IF NOT EXISTS billing.test_multi_row_inserts`);
  await h.ds.query(`
    CREATE OR REPLACE FUNCTION billing.test_multi_row() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (SELECT count(*) FROM new_rows) > 1 THEN
        PERFORM nextval('billing.test_multi_row_inserts');
        IF ${refuse} THEN RAISE EXCEPTION 'injected: multi-row ledger insert'; END IF;
      END IF;
      RETURN NULL;
    END $$`);
  await h.ds.query(`CREATE TRIGGER test_multi_row AFTER INSERT ON billing.ledger_entries
                    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION billing.test_multi_row()`);
  const [{ start }] = await h.ds.query(
    `SELECT last_value - CASE WHEN is_called THEN 0 ELSE 1 END AS start FROM billing.test_multi_row_inserts`,
  );
  return async () => {
    const [{ now }] = await h.ds.query(
      `SELECT last_value - CASE WHEN is_called THEN 0 ELSE 1 END AS now FROM billing.test_multi_row_inserts`,
    );
    return Number(now) - Number(start);
  };
}

async function dropCounter(): Promise<void> {
  await h.ds.query(`DROP TRIGGER test_multi_row ON billing.ledger_entries`);
}

async function startConsumer(): Promise<KafkaEventBus> {
  const bus = new KafkaEventBus({
    brokers: kafkaBrokers(),
    clientId: 'billing-batch-test',
    topicPrefix: uniqueName('billing_batch'),
    logger,
    retryBackoff: { initialMs: 50, maxMs: 200 },
  });
  buses.push(bus);
  await redisDomain(h, bus).start();
  return bus;
}

/** 50 requests with holds, and their usage events with every fifth one delivered twice. */
async function burst(accountId: string, prefix: string): Promise<UsageRecorded[]> {
  const events: UsageRecorded[] = [];
  for (let i = 0; i < 50; i++) {
    const request_id = `${prefix}-${i}`;
    const { holdId } = await hold(h, accountId, 5_000, request_id);
    events.push(usageEvent(accountId, { request_id, hold_id: holdId, cost_micros: 1_000 + i }));
    if (i % 5 === 0) events.push({ ...events[events.length - 1], event_id: randomUUID() });
  }
  return events;
}

const expectedCost = Array.from({ length: 50 }, (_, i) => 1_000 + i).reduce((a, b) => a + b, 0);

test('a burst of usage events settles in batches, exactly once, releasing every hold', async () => {
  const acc = await h.domain.billing.createAccount('kafka-burst', 10_000_000);
  const multiRowInserts = await countMultiRowInserts(false);
  try {
    const bus = await startConsumer();
    await produceTogether(bus.name(TOPICS.usageRecorded), await burst(acc.id, 'burst'));
    await waitFor('50 entries', async () => (await ledgerCount(h.ds, acc.id)) >= 50);
    await waitFor('holds released', async () => (await readMoney(h, acc.id)).reserved === 0);
    expect(await ledgerCount(h.ds, acc.id)).toBe(50);
    expect(await readMoney(h, acc.id)).toEqual({ balance: 10_000_000 - expectedCost, copy: 10_000_000 - expectedCost, reserved: 0 });
    expect(await multiRowInserts()).toBeGreaterThan(0); // settled in batches, not one by one
  } finally {
    await dropCounter();
  }
});

test('when a batch transaction fails, its events are settled one by one, still exactly once', async () => {
  const acc = await h.domain.billing.createAccount('kafka-fallback', 10_000_000);
  // Fault injection in the real database: any statement writing more than one ledger entry fails.
  const refusedBatches = await countMultiRowInserts(true);
  try {
    const bus = await startConsumer();
    await produceTogether(bus.name(TOPICS.usageRecorded), await burst(acc.id, 'fallback'));
    await waitFor('50 entries', async () => (await ledgerCount(h.ds, acc.id)) >= 50);
    await waitFor('holds released', async () => (await readMoney(h, acc.id)).reserved === 0);
    expect(await ledgerCount(h.ds, acc.id)).toBe(50);
    expect(await readMoney(h, acc.id)).toEqual({ balance: 10_000_000 - expectedCost, copy: 10_000_000 - expectedCost, reserved: 0 });
    expect(await refusedBatches()).toBeGreaterThan(0); // the batch path was taken, failed, and fell back
  } finally {
    await dropCounter();
  }
});
