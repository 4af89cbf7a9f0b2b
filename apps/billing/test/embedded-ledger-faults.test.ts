/**
 * The embedded ledger on an operator's bad day. Usage that reaches it after it stopped: at SIGTERM
 * standalone drains its answers until the deadline, then closes what is left and stops billing; a
 * stream cut there records what it produced a few ms later, after the ledger's drain. That charge goes
 * to the journal, and the next start settles it. A database that refuses a credit's row (a full disk)
 * fails the credit with a 503 to retry, and never the charges written in the same transaction
 * (Postgres would answer its COMMIT with a silent rollback while memory took them for written). And
 * a ledger that cannot write (commits or journal appends failing) is not ready; while both fail, a
 * charge would live in memory only, so calls that hold money are refused until a commit succeeds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryEventBus } from '@unigate/platform';
import { EMBEDDED_POOL_SIZE, startEmbeddedPostgres, type EmbeddedPostgres } from '@unigate/platform/database';
import type { DataSource } from 'typeorm';
import { createBillingDomain, openBillingDataSource, type BillingDomain } from '../src';
import { LedgerJournal } from '../src/embedded/ledger-journal';
import { balanceMicros, ledgerCount, logger, principal, usageEvent } from './harness';

let dir: string;
let pg: EmbeddedPostgres;
let ds: DataSource;
let domain: BillingDomain;

async function open(): Promise<void> {
  pg = await startEmbeddedPostgres(dir);
  ds = await openBillingDataSource({ url: pg.url, poolSize: EMBEDDED_POOL_SIZE, logger });
  domain = createBillingDomain({
    dataSource: ds,
    bus: new InMemoryEventBus({ logger }),
    logger,
    mode: { kind: 'embedded', journalDir: join(dir, 'journal') },
  });
  await domain.start();
}

async function shut(): Promise<void> {
  await domain.stop();
  await ds.destroy();
  await pg.close();
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'unigate-billing-late-'));
  await open();
});
afterAll(async () => {
  await shut();
  await rm(dir, { recursive: true, force: true });
});

test('a charge settled after the ledger stopped (a stream cut at the shutdown deadline) is settled by the next start', async () => {
  const acc = await domain.billing.createAccount('embedded-late', 1_000_000);
  await domain.settle(usageEvent(acc.id, { request_id: 'late-0', cost_micros: 1_000 }));
  // Billing stops while the cut stream is still recording: one event during the drain, one after it.
  const stopping = domain.stop();
  const during = usageEvent(acc.id, { request_id: 'late-during', cost_micros: 2_000 });
  domain.journalUsage!(during);
  await domain.settle(during);
  await stopping;
  const after = usageEvent(acc.id, { request_id: 'late-after', cost_micros: 4_000 });
  domain.journalUsage!(after);
  await domain.settle(after);
  await ds.destroy();
  await pg.close();

  await open();
  expect(await ledgerCount(ds, acc.id)).toBe(3);
  expect(await balanceMicros(ds, acc.id)).toBe(1_000_000 - 7_000);
});

test('a credit the database refuses inside a batch with charges does not take the charges down with it', async () => {
  const acc = await domain.billing.createAccount('embedded-credit-refused', 1_000_000);
  // The database refuses this credit's row (as a full disk refuses any), after the batch's entries were written.
  await ds.query(
    `CREATE FUNCTION billing.refuse_credit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$`,
  );
  await ds.query(`CREATE TRIGGER refuse_credit BEFORE INSERT ON billing.credits FOR EACH ROW EXECUTE FUNCTION billing.refuse_credit()`);
  let status: unknown;
  try {
    const settled = domain.settle(usageEvent(acc.id, { request_id: 'refused-batch-1', cost_micros: 3_000 }));
    const credit = domain.billing.credit(acc.id, 5_000, 'refused-1').then(
      () => 'credited',
      (err: { status?: number }) => err.status,
    );
    await settled;
    status = await credit;
    await domain.flush();
  } finally {
    await ds.query(`DROP TRIGGER refuse_credit ON billing.credits; DROP FUNCTION billing.refuse_credit()`);
  }
  // The charge is in the ledger (the batch was retried without the credit), and the credit is refused with a 503 to retry.
  expect(await ledgerCount(ds, acc.id)).toBe(1);
  expect(await balanceMicros(ds, acc.id)).toBe(997_000);
  expect(status).toBe(503);
});

test('a ledger whose commits or journal appends fail is not ready until they succeed again', async () => {
  const acc = await domain.billing.createAccount('embedded-unwritable', 1_000_000);
  await domain.checkReady();
  // The database refuses every entry (as a full disk refuses any write): the store still answers SELECT 1.
  await ds.query(`CREATE FUNCTION billing.refuse_entry() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$`);
  await ds.query(
    `CREATE TRIGGER refuse_entry BEFORE INSERT ON billing.ledger_entries FOR EACH ROW EXECUTE FUNCTION billing.refuse_entry()`,
  );
  try {
    await domain.settle(usageEvent(acc.id, { request_id: 'unwritable-1', cost_micros: 1_000 }));
    await domain.flush();
    await expect(domain.checkReady()).rejects.toThrow(/ledger commits are failing, entries waiting .*disk full/);
  } finally {
    await ds.query(`DROP TRIGGER refuse_entry ON billing.ledger_entries; DROP FUNCTION billing.refuse_entry()`);
  }
  await domain.flush();
  await domain.checkReady();
  expect(await ledgerCount(ds, acc.id)).toBe(1);

  // The journal's disk is full: the charge still settles, but not crash-safe; ready again after an append succeeds.
  const full = jest.spyOn(LedgerJournal.prototype, 'append').mockImplementation(() => {
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  });
  const probe = jest.spyOn(LedgerJournal.prototype, 'writable').mockReturnValue(false);
  try {
    await domain.settle(usageEvent(acc.id, { request_id: 'unwritable-2', cost_micros: 1_000 }));
    await expect(domain.checkReady()).rejects.toThrow(/journal cannot be written/);
  } finally {
    full.mockRestore();
    probe.mockRestore();
  }
  // Ready again with no request coming (a probe that fails takes a gateway out of rotation): the check
  // itself finds the disk writable.
  await domain.checkReady();
  await domain.settle(usageEvent(acc.id, { request_id: 'unwritable-3', cost_micros: 1_000 }));
  await domain.flush();
  expect(await balanceMicros(ds, acc.id)).toBe(997_000);

  // A batch of credits alone that the database refuses: answered 503, nothing left unwritten, still ready.
  await ds.query(
    `CREATE FUNCTION billing.refuse_credit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$`,
  );
  await ds.query(`CREATE TRIGGER refuse_credit BEFORE INSERT ON billing.credits FOR EACH ROW EXECUTE FUNCTION billing.refuse_credit()`);
  try {
    await expect(domain.billing.credit(acc.id, 5_000, 'unwritable-credit')).rejects.toMatchObject({ status: 503 });
    await domain.checkReady();
  } finally {
    await ds.query(`DROP TRIGGER refuse_credit ON billing.credits; DROP FUNCTION billing.refuse_credit()`);
  }
});

test('while a charge could live in memory only (commits and journal appends both failing), a call that holds money is refused with 503', async () => {
  const acc = await domain.billing.createAccount('embedded-memory-only', 1_000_000);
  const admit = (requestId: string, amount: number) =>
    domain.reservations!.admit({ principal: principal(acc.id), request_id: requestId, amount_micros: amount });
  await ds.query(`CREATE FUNCTION billing.refuse_entry() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$`);
  await ds.query(
    `CREATE TRIGGER refuse_entry BEFORE INSERT ON billing.ledger_entries FOR EACH ROW EXECUTE FUNCTION billing.refuse_entry()`,
  );
  const probe = jest.spyOn(LedgerJournal.prototype, 'writable').mockReturnValue(false);
  try {
    // Commits failing alone: the journal keeps the charges crash-safe, calls go on.
    await domain.settle(usageEvent(acc.id, { request_id: 'memory-only-0', cost_micros: 1_000 }));
    await domain.flush();
    (await admit('memory-only-journaled', 1_000)).refund();
    // Both failing (a full disk): the charge taken is in memory only, and no new one is taken.
    jest.spyOn(LedgerJournal.prototype, 'append').mockImplementation(() => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    await domain.settle(usageEvent(acc.id, { request_id: 'memory-only-1', cost_micros: 1_000 }));
    await domain.flush();
    await expect(admit('memory-only-2', 1_000)).rejects.toMatchObject({ status: 503, code: 'service_unavailable', retryAfter: 5 });
    // A call that holds nothing has no charge to lose.
    (await admit('memory-only-free', 0)).finish();
    // The disk has room for the journal again while the database stays broken: refused calls append
    // nothing, so the refusal probes the disk itself (at most once a second) and lifts.
    jest.spyOn(LedgerJournal.prototype, 'append').mockRestore();
    probe.mockReturnValue(true);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    (await admit('memory-only-journal-back', 1_000)).refund();
  } finally {
    jest.restoreAllMocks();
    probe.mockRestore();
    await ds.query(`DROP TRIGGER refuse_entry ON billing.ledger_entries; DROP FUNCTION billing.refuse_entry()`);
  }
  // A commit that succeeds (the retry timer's, or this flush) writes what waited and lifts the refusal.
  await domain.flush();
  expect(await ledgerCount(ds, acc.id)).toBe(2);
  (await admit('memory-only-3', 1_000)).refund();
  expect(await balanceMicros(ds, acc.id)).toBe(998_000);
});
