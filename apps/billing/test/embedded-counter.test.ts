/**
 * The reservation counter on the embedded store as standalone composes it (PGlite behind the wire
 * server, a pool of one connection, plus settlement's own pool of one): the same storm as on
 * Postgres stays exact, and a pooled connection that reconnects keeps using its prepared statements.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBEDDED_POOL_SIZE, InMemoryEventBus, startEmbeddedPostgres, type EmbeddedPostgres } from '@unigate/platform';
import type { DataSource } from 'typeorm';
import { createBillingDomain, openBillingDataSource, type BillingDomain } from '../src';
import { sweepExpiredHolds } from '../src/domain/hold-sweeper';
import { logger } from './harness';
import { readMoney, runStorm } from './storm';

const TTL_MS = 3_000;
let dir: string;
let pg: EmbeddedPostgres;
let ds: DataSource;
let settlementDs: DataSource;
let bus: InMemoryEventBus;
let domain: BillingDomain;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'unigate-billing-counter-'));
  pg = await startEmbeddedPostgres(dir);
  ds = await openBillingDataSource({ url: pg.url, poolSize: EMBEDDED_POOL_SIZE, logger });
  settlementDs = await openBillingDataSource({ url: pg.url, poolSize: EMBEDDED_POOL_SIZE, logger });
  bus = new InMemoryEventBus({ logger });
  domain = createBillingDomain({ dataSource: ds, settlementDataSource: settlementDs, bus, logger, holdTtlMs: TTL_MS });
});
afterAll(async () => {
  await domain.stop();
  await bus.close();
  await settlementDs.destroy();
  await ds.destroy();
  await pg.close();
  await rm(dir, { recursive: true, force: true });
});

test('a storm of holds, releases, settlements, abandoned holds and sweeps stays exact', async () => {
  const funded = 60_000;
  const acc = await domain.billing.createAccount('embedded-storm', funded);
  const storm = await runStorm(domain, ds, { accountId: acc.id, workers: 12, rounds: 15 });
  expect(storm.violations).toEqual([]);
  expect(storm.placed).toBeGreaterThan(0);
  expect(storm.refused).toBeGreaterThan(0);

  await new Promise((r) => setTimeout(r, TTL_MS + 100));
  await sweepExpiredHolds(ds);
  const totalCost = [...storm.settled.values()].reduce((a, b) => a + b, 0);
  expect(await readMoney(ds, acc.id)).toEqual({ balance: funded - totalCost, reserved: 0, held: 0, holds: 0 });
  const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM billing.ledger_entries WHERE account_id = $1`, [acc.id]);
  expect(n).toBe(storm.settled.size);
});

test('prepared statements survive the pool replacing its connection', async () => {
  const acc = await domain.billing.createAccount('reconnect', 10_000);
  await domain.billing.placeHold({ request_id: 'rc-1', account_id: acc.id, key_id: 'k', amount_micros: 1_000 });
  // The pool closes connections idle for idleTimeoutMillis (10 s by default); make that quick.
  const pool = (ds.driver as unknown as { master: { options: { idleTimeoutMillis: number }; totalCount: number } }).master;
  const idle = pool.options.idleTimeoutMillis;
  pool.options.idleTimeoutMillis = 20;
  try {
    await domain.billing.getAccount(acc.id); // released to the pool with the short idle timer
    await new Promise((r) => setTimeout(r, 200));
    expect(pool.totalCount).toBe(0);
  } finally {
    pool.options.idleTimeoutMillis = idle;
  }
  await domain.billing.placeHold({ request_id: 'rc-2', account_id: acc.id, key_id: 'k', amount_micros: 1_000 });
  expect(await domain.billing.getAccount(acc.id)).toMatchObject({ reserved_usd: 0.002 });
});
