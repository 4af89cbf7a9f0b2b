/**
 * Billing on the embedded store exactly as standalone composes it (PGlite behind our embedded wire server, pool
 * of one, in-process bus): concurrent holds, credits and settlements end with exact balances, and
 * the data survives a restart.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOPICS } from '@unigate/contracts';
import { EMBEDDED_POOL_SIZE, InMemoryEventBus, startEmbeddedPostgres, type EmbeddedPostgres } from '@unigate/platform';
import type { DataSource } from 'typeorm';
import { createBillingDomain, openBillingDataSource, type BillingDomain } from '../src';
import { balanceMicros, ledgerCount, logger, usageEvent, waitFor } from './harness';

let dir: string;
let pg: EmbeddedPostgres;
let ds: DataSource;
let bus: InMemoryEventBus;
let domain: BillingDomain;

async function open(): Promise<void> {
  pg = await startEmbeddedPostgres(dir);
  ds = await openBillingDataSource({ url: pg.url, poolSize: EMBEDDED_POOL_SIZE, logger });
  bus = new InMemoryEventBus({ logger });
  domain = createBillingDomain({ dataSource: ds, bus, logger });
  await domain.start();
}

async function shut(): Promise<void> {
  await domain.stop();
  await bus.close();
  await ds.destroy();
  await pg.close();
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'unigate-billing-'));
  await open();
});
afterAll(async () => {
  await shut();
  await rm(dir, { recursive: true, force: true });
});

test('40 concurrent holds on a balance that fits 25 grant exactly 25', async () => {
  const acc = await domain.billing.createAccount('embedded-race', 25_000);
  const results = await Promise.allSettled(
    Array.from({ length: 40 }, (_, i) => domain.billing.placeHold({ request_id: `race-${i}`, account_id: acc.id, key_id: 'k', amount_micros: 1_000 })),
  );
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(25);
  for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ status: 402 });
  expect(await domain.billing.getAccount(acc.id)).toMatchObject({ balance_usd: 0.025, reserved_usd: 0.025 });
});

test('holds, credits and settlements interleaved 40-wide end with exact balances, and survive a restart', async () => {
  const acc = await domain.billing.createAccount('embedded-mix', 1_000_000);
  const ops: Array<Promise<unknown>> = [];
  for (let i = 0; i < 40; i++) {
    ops.push(domain.billing.credit(acc.id, 3_000, `ref-${i % 30}`)); // 30 distinct references, 10 repeats
    ops.push(domain.settler.handle(usageEvent(acc.id, { request_id: `direct-${i}`, cost_micros: 700 })));
    ops.push(bus.publish(TOPICS.usageRecorded, acc.id, usageEvent(acc.id, { request_id: `bus-${i % 20}`, cost_micros: 500 })));
    ops.push(domain.billing.placeHold({ request_id: `hold-${i}`, account_id: acc.id, key_id: 'k', amount_micros: 1_000 }));
  }
  await Promise.all(ops);
  await waitFor('bus settlements', async () => (await ledgerCount(ds, acc.id)) >= 60);

  const expected = 1_000_000 + 30 * 3_000 - 40 * 700 - 20 * 500;
  expect(await ledgerCount(ds, acc.id)).toBe(60);
  expect(await balanceMicros(ds, acc.id)).toBe(expected);
  expect(await domain.billing.getAccount(acc.id)).toMatchObject({ reserved_usd: 0.04 });

  await shut();
  await open();
  expect(await balanceMicros(ds, acc.id)).toBe(expected);
  expect(await ledgerCount(ds, acc.id)).toBe(60);
});
