/**
 * The reserved-counter migration on a database that already has money in flight: it backfills each
 * account's counter from its holds (expired ones included, until swept), the triggers then keep the
 * counter exact for any writer — including hand-written SQL — and the migration reverts cleanly.
 */
import { createDataSource } from '@unigate/platform';
import { createTestDatabase, type TestDatabase } from '@unigate/testing';
import type { DataSource } from 'typeorm';
import { BILLING_ENTITIES, BILLING_MIGRATIONS, BILLING_SCHEMA, createBillingDomain, openBillingDataSource } from '../src';
import { sweepExpiredHolds } from '../src/domain/hold-sweeper';
import { BillingInitial1732240000000 } from '../src/migrations/1732240000000-billing-initial';
import { logger } from './harness';
import { readMoney } from './storm';
import { InMemoryEventBus } from '@unigate/platform';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const C = '00000000-0000-4000-8000-00000000000c';

let db: TestDatabase;
let ds: DataSource;
beforeAll(async () => {
  db = await createTestDatabase('billing_migration');
  // The schema as the previous release left it, with accounts and holds (live and expired) in it.
  const before = await createDataSource({
    url: db.url,
    schema: BILLING_SCHEMA,
    entities: BILLING_ENTITIES,
    migrations: [BillingInitial1732240000000],
    logger,
  });
  await before.query(`INSERT INTO billing.accounts (id, name, balance_micros) VALUES ($1, 'a', 10000), ($2, 'b', 5000), ($3, 'c', 0)`, [
    A,
    B,
    C,
  ]);
  await before.query(
    `INSERT INTO billing.holds (id, account_id, key_id, request_id, amount_micros, expires_at) VALUES
       (gen_random_uuid(), $1, 'k', 'a-live-1', 1000, now() + interval '1 hour'),
       (gen_random_uuid(), $1, 'k', 'a-live-2', 2500, now() + interval '1 hour'),
       (gen_random_uuid(), $1, 'k', 'a-expired', 4000, now() - interval '1 minute'),
       (gen_random_uuid(), $2, 'k', 'b-expired', 5000, now() - interval '1 minute')`,
    [A, B],
  );
  await before.destroy();
  ds = await openBillingDataSource({ url: db.url, logger });
});
afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

test('the counter is backfilled from every hold; reads leave the expired ones out until they are swept', async () => {
  expect(await readMoney(ds, A)).toEqual({ balance: 10_000, reserved: 7_500, held: 7_500, holds: 3 });
  expect(await readMoney(ds, B)).toEqual({ balance: 5_000, reserved: 5_000, held: 5_000, holds: 1 });
  expect(await readMoney(ds, C)).toEqual({ balance: 0, reserved: 0, held: 0, holds: 0 });
  const domain = createBillingDomain({ dataSource: ds, bus: new InMemoryEventBus({ logger }), logger });
  expect(await domain.billing.getAccount(A)).toMatchObject({ balance_usd: 0.01, reserved_usd: 0.0035 });
  expect(await domain.billing.getAccount(B)).toMatchObject({ reserved_usd: 0 });

  expect(await sweepExpiredHolds(ds)).toEqual({ holds: 2, micros: 9_000 });
  expect(await readMoney(ds, A)).toEqual({ balance: 10_000, reserved: 3_500, held: 3_500, holds: 2 });
  expect(await readMoney(ds, B)).toEqual({ balance: 5_000, reserved: 0, held: 0, holds: 0 });
  // B's money, held by its expired hold before the upgrade, can be reserved again in full.
  await expect(domain.billing.placeHold({ request_id: 'b-new', account_id: B, key_id: 'k', amount_micros: 5_000 })).resolves.toHaveProperty(
    'hold_id',
  );
});

test('the triggers keep the counter exact for hand-written SQL too: insert, update, delete, truncate', async () => {
  await ds.query(
    `INSERT INTO billing.holds (id, account_id, key_id, request_id, amount_micros, expires_at)
                  SELECT gen_random_uuid(), $1, 'k', 'manual-' || n, 100, now() + interval '1 hour' FROM generate_series(1, 10) n`,
    [C],
  );
  expect(await readMoney(ds, C)).toMatchObject({ reserved: 1_000, held: 1_000 });
  await ds.query(
    `UPDATE billing.holds SET amount_micros = amount_micros * 2 WHERE account_id = $1 AND request_id IN ('manual-1', 'manual-2')`,
    [C],
  );
  expect(await readMoney(ds, C)).toMatchObject({ reserved: 1_200, held: 1_200 });
  await ds.query(`UPDATE billing.holds SET account_id = $1 WHERE request_id = 'manual-3'`, [A]);
  expect(await readMoney(ds, C)).toMatchObject({ reserved: 1_100, held: 1_100 });
  expect(await readMoney(ds, A)).toMatchObject({ reserved: 3_600, held: 3_600 });
  await ds.query(`DELETE FROM billing.holds WHERE account_id = $1 AND request_id LIKE 'manual-%'`, [C]);
  expect(await readMoney(ds, C)).toMatchObject({ reserved: 0, held: 0 });
  await ds.query(`TRUNCATE billing.holds`);
  for (const id of [A, B, C]) expect(await readMoney(ds, id)).toMatchObject({ reserved: 0, held: 0, holds: 0 });
});

test('the migration reverts and re-applies cleanly', async () => {
  await ds.query(
    `INSERT INTO billing.holds (id, account_id, key_id, request_id, amount_micros, expires_at) VALUES (gen_random_uuid(), $1, 'k', 'revert', 700, now() + interval '1 hour')`,
    [A],
  );
  await ds.undoLastMigration({ transaction: 'each' });
  const cols: unknown[] = await ds.query(
    `SELECT 1 FROM information_schema.columns WHERE table_schema = 'billing' AND table_name = 'accounts' AND column_name = 'reserved_micros'`,
  );
  expect(cols).toHaveLength(0);
  expect(await ds.runMigrations({ transaction: 'each' })).toHaveLength(1);
  expect(await readMoney(ds, A)).toEqual({ balance: 10_000, reserved: 700, held: 700, holds: 1 });
  expect(BILLING_MIGRATIONS).toHaveLength(2);
});
