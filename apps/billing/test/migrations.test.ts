/**
 * The billing schema from scratch, and the upgrade that moved holds out of Postgres: a database that
 * still has holds migrates cleanly (its holds were reservations only: balances are untouched), and
 * afterwards the database bumps an account's version on every balance change, whoever writes it.
 */
import { createTestDatabase } from '@unigate/testing';
import { DataSource } from 'typeorm';
import { BILLING_ENTITIES, BILLING_MIGRATIONS } from '../src';

test('a database with holds upgrades, and every balance change bumps the version', async () => {
  const db = await createTestDatabase('billing_migrations');
  const before = BILLING_MIGRATIONS.findIndex((m) => m.name === 'HoldsLeavePostgres1737000000000');
  const ds = new DataSource({
    type: 'postgres',
    url: db.url,
    schema: 'billing',
    entities: BILLING_ENTITIES,
    migrations: BILLING_MIGRATIONS.slice(0, before),
  });
  try {
    await ds.initialize();
    await ds.query('CREATE SCHEMA IF NOT EXISTS billing');
    await ds.runMigrations({ transaction: 'each' });
    await ds.query(`INSERT INTO billing.accounts (id, name, balance_micros) VALUES ('00000000-0000-4000-8000-000000000001', 'old', 10000)`);
    await ds.query(
      `INSERT INTO billing.holds (id, account_id, key_id, request_id, amount_micros, expires_at)
       VALUES (gen_random_uuid(), '00000000-0000-4000-8000-000000000001', 'k', 'r', 700, now() + interval '1 hour')`,
    );
    await ds.destroy();

    const upgraded = new DataSource({
      type: 'postgres',
      url: db.url,
      schema: 'billing',
      entities: BILLING_ENTITIES,
      migrations: BILLING_MIGRATIONS,
    });
    await upgraded.initialize();
    expect((await upgraded.runMigrations({ transaction: 'each' })).map((m) => m.name)).toEqual(
      BILLING_MIGRATIONS.slice(before).map((m) => m.name),
    );
    const tables: unknown[] = await upgraded.query(
      `SELECT 1 FROM information_schema.tables WHERE table_schema = 'billing' AND table_name = 'holds'`,
    );
    expect(tables).toHaveLength(0);
    const read = async () =>
      (await upgraded.query(`SELECT balance_micros::int AS balance, version::int AS version FROM billing.accounts`))[0];
    expect(await read()).toEqual({ balance: 10_000, version: 0 });
    await upgraded.query(`UPDATE billing.accounts SET balance_micros = balance_micros - 1`);
    await upgraded.query(`UPDATE billing.accounts SET name = 'renamed'`); // not a balance change
    await upgraded.query(`UPDATE billing.accounts SET balance_micros = 5`);
    expect(await read()).toEqual({ balance: 5, version: 2 });
    await upgraded.destroy();
  } finally {
    if (ds.isInitialized) await ds.destroy();
    await db.drop();
  }
});
