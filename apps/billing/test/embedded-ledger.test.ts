/**
 * Billing on the embedded store exactly as standalone composes it (PGlite behind our embedded wire
 * server, pool of one): money in memory, the ledger in group commits. Concurrent admissions, credits
 * and settlements end with exact balances; a commit lands within its window without anyone asking,
 * and ledger reads see charges not committed yet; a stop writes everything; a crash loses no
 * journaled charge and never leaves the database inconsistent (a charge without its entry, or an
 * entry without its charge).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOPICS, type KeyStale } from '@unigate/contracts';
import { createLogger, InMemoryEventBus } from '@unigate/platform';
import { EMBEDDED_POOL_SIZE, startEmbeddedPostgres, type EmbeddedPostgres } from '@unigate/platform/database';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { COMMIT_WINDOW_MS, createBillingDomain, hashApiKey, openBillingDataSource, type BillingDomain } from '../src';
import { EmbeddedLedger, needsAnalyze } from '../src/embedded/embedded-ledger';
import { LedgerJournal } from '../src/embedded/ledger-journal';
import { WRITE_ENTRIES_AND_BALANCES } from '../src/domain/usage-event';
import { balanceMicros, ledgerCount, logger, principal, usageEvent, waitFor } from './harness';

let dir: string;
let pg: EmbeddedPostgres;
let ds: DataSource;
let bus: InMemoryEventBus;
let domain: BillingDomain;

async function open(): Promise<void> {
  pg = await startEmbeddedPostgres(dir);
  ds = await openBillingDataSource({ url: pg.url, poolSize: EMBEDDED_POOL_SIZE, logger });
  bus = new InMemoryEventBus({ logger });
  domain = createBillingDomain({ dataSource: ds, bus, logger, mode: { kind: 'embedded', journalDir: join(dir, 'journal') } });
  await domain.start();
}

/** A clean stop: billing writes what it settled, then the database closes. */
async function shut(): Promise<void> {
  await domain.stop();
  await bus.close();
  await ds.destroy();
  await pg.close();
}

/** "kill -9", then a restart on the same data: the database goes away under billing first, so nothing can be written any more. */
async function crashAndRestart(): Promise<void> {
  const crashed = domain;
  await pg.close();
  await crashed.stop().catch(() => undefined);
  await ds.destroy().catch(() => undefined);
  await bus.close();
  await open();
}

const admit = (accountId: string, requestId: string, amount: number) =>
  domain.reservations!.admit({ principal: principal(accountId), request_id: requestId, amount_micros: amount });

/** The ledger proves the balance: opening credit + credits − every charge == the stored balance. */
async function ledgerProvesBalance(accountId: string): Promise<{ balance: number; proven: number }> {
  const [r] = await ds.query(
    `SELECT a.balance_micros::text AS balance,
            ((SELECT COALESCE(SUM(amount_micros), 0) FROM billing.credits c WHERE c.account_id = a.id)
              - (SELECT COALESCE(SUM(charged_micros), 0) FROM billing.ledger_entries l WHERE l.account_id = a.id))::text AS proven
     FROM billing.accounts a WHERE a.id = $1`,
    [accountId],
  );
  return { balance: Number(r.balance), proven: Number(r.proven) };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'unigate-billing-'));
  await open();
});
afterAll(async () => {
  await shut();
  await rm(dir, { recursive: true, force: true });
});

test('40 concurrent admissions on a balance that fits 25 hold exactly 25, with no database statement', async () => {
  const acc = await domain.billing.createAccount('embedded-race', 25_000);
  const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => admit(acc.id, `race-${i}`, 1_000)));
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(25);
  for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ status: 402 });
  expect(await domain.billing.getAccount(acc.id)).toMatchObject({ balance_usd: 0.025, reserved_usd: 0.025 });
});

test("a key's settings change on the embedded store, edges hear the key-stale event, and a revoked key cannot be changed", async () => {
  const stale: KeyStale[] = [];
  await bus.subscribe(TOPICS.keyStale, 'edge-test', async (p) => void stale.push(p as KeyStale));
  const acc = await domain.billing.createAccount('embedded-keys', 0);
  const created = await domain.billing.createKey(acc.id, { rate_limit_rpm: 1, max_concurrency: 1 });
  const hash = hashApiKey(created.key);

  expect(await domain.billing.updateKey(created.id, { rate_limit_rpm: 100, max_concurrency: null, name: 'raised' })).toMatchObject({
    id: created.id,
    name: 'raised',
    models: null,
    rate_limit_rpm: 100,
    max_concurrency: null,
  });
  expect(await domain.billing.authenticate(hash)).toMatchObject({ rate_limit_rpm: 100, max_concurrency: null });
  await waitFor('key-stale event', () => stale.length === 1);
  expect(stale[0]).toEqual({ event_id: expect.any(String), key_id: created.id, key_hash: hash });

  await domain.billing.revokeKey(created.id);
  await expect(domain.billing.updateKey(created.id, { rate_limit_rpm: 5 })).rejects.toMatchObject({ status: 404 });
  await expect(domain.billing.updateKey(created.id, {})).rejects.toMatchObject({ status: 400 });
});

test('admissions, credits and settlements interleaved 40-wide end with exact balances, and survive a restart', async () => {
  const acc = await domain.billing.createAccount('embedded-mix', 1_000_000);
  const ops: Array<Promise<unknown>> = [];
  for (let i = 0; i < 40; i++) {
    ops.push(domain.billing.credit(acc.id, 3_000, `ref-${i % 30}`)); // 30 distinct references, 10 repeats
    ops.push(domain.settle(usageEvent(acc.id, { request_id: `direct-${i}`, cost_micros: 700 })));
    ops.push(domain.settle(usageEvent(acc.id, { request_id: `dup-${i % 20}`, cost_micros: 500 }))); // 20 twice
    ops.push(admit(acc.id, `hold-${i}`, 1_000));
  }
  await Promise.all(ops);

  const expected = 1_000_000 + 30 * 3_000 - 40 * 700 - 20 * 500;
  expect(await domain.billing.getAccount(acc.id)).toMatchObject({ balance_usd: expected / 1e6, reserved_usd: 0.04 });
  await waitFor('the group commits', async () => (await ledgerCount(ds, acc.id)) === 60);
  expect(await balanceMicros(ds, acc.id)).toBe(expected);
  expect(await ledgerProvesBalance(acc.id)).toEqual({ balance: expected, proven: expected });

  await shut();
  await open();
  expect(await balanceMicros(ds, acc.id)).toBe(expected);
  expect(await ledgerCount(ds, acc.id)).toBe(60);
  // Holds lived in memory only: after the restart the money is available again.
  expect(await domain.billing.getAccount(acc.id)).toMatchObject({ balance_usd: expected / 1e6, reserved_usd: 0 });
});

test('a settlement reaches the database within its commit window without anyone flushing', async () => {
  const acc = await domain.billing.createAccount('embedded-window', 1_000_000);
  await admit(acc.id, 'window-1', 10_000);
  expect(await domain.settle(usageEvent(acc.id, { request_id: 'window-1', hold_id: 'window-1', cost_micros: 4_000 }))).toBe('settled');
  const settledAt = performance.now();
  await waitFor('the commit', async () => (await ledgerCount(ds, acc.id)) === 1, 5_000);
  // Generous bound for a shared machine; the window itself is COMMIT_WINDOW_MS (docs/billing.md).
  expect(performance.now() - settledAt).toBeLessThan(COMMIT_WINDOW_MS + 1_000);
  expect(await balanceMicros(ds, acc.id)).toBe(996_000);
});

test('quota and usage reads see a charge taken a moment before, however long the commit window', async () => {
  // A window no test outlasts: without the flush before each ledger read, both reads miss the charge.
  const slow = createBillingDomain({ dataSource: ds, bus, logger, mode: { kind: 'embedded', commitWindowMs: 600_000 } });
  try {
    const acc = await slow.billing.createAccount('embedded-read-own', 1_000_000);
    expect(await slow.settle(usageEvent(acc.id, { request_id: 'read-own-1', cost_micros: 4_000 }))).toBe('settled');
    expect(await ledgerCount(ds, acc.id)).toBe(0);
    expect(await slow.billing.quota(acc.id)).toMatchObject({ balance_micros: 996_000, used_micros: 4_000 });
    expect(await slow.settle(usageEvent(acc.id, { request_id: 'read-own-2', cost_micros: 1_000 }))).toBe('settled');
    expect((await slow.billing.listUsage(acc.id)).entries.map((e) => e.request_id)).toEqual(['read-own-2', 'read-own-1']);
  } finally {
    await slow.stop();
  }
});

test('a credit and the first load of its account racing each other never lose the credit', async () => {
  for (let round = 0; round < 10; round++) {
    const acc = await domain.billing.createAccount(`embedded-load-${round}`, 1_000);
    // The account is not in memory yet: the admission loads it while the credit is being written.
    const [credited] = await Promise.all([
      domain.billing.credit(acc.id, 5_000, `load-${round}`),
      admit(acc.id, `load-${round}`, 500).catch(() => null),
    ]);
    expect(credited.balance_usd).toBe(0.006);
    expect(await domain.billing.getAccount(acc.id)).toMatchObject({ balance_usd: 0.006 });
    await domain.settle(usageEvent(acc.id, { request_id: `load-charge-${round}`, cost_micros: 100 }));
    await domain.flush();
    expect(await balanceMicros(ds, acc.id)).toBe(5_900);
  }
});

test('a crash between a charge and its commit loses nothing: the journal is replayed at the next start', async () => {
  const acc = await domain.billing.createAccount('embedded-crash', 10_000_000);
  for (let i = 0; i < 200; i++) {
    await domain.settle(usageEvent(acc.id, { request_id: `crash-${i}`, cost_micros: 1_000 + i }));
    if (i % 20 === 0) await new Promise((r) => setTimeout(r, COMMIT_WINDOW_MS * 2));
  }
  await crashAndRestart();
  expect(await ledgerCount(ds, acc.id)).toBe(200);
  const proof = await ledgerProvesBalance(acc.id);
  expect(proof.balance).toBe(proof.proven);
  // 200 charges of 1,000 + i micro-dollars each.
  expect(proof.balance).toBe(10_000_000 - (200 * 1_000 + (199 * 200) / 2));
});

test('a journal of settled entries (its format before usage events) is replayed: committed ones change nothing', async () => {
  const acc = await domain.billing.createAccount('embedded-replay', 1_000_000);
  await domain.settle(usageEvent(acc.id, { request_id: 'replay-1', cost_micros: 5_000 }));
  await domain.flush();
  // A copy of the committed entry left behind, as if the process died before deleting its segment,
  // and one entry that never committed (in a journal of its own: the live ledger's open segment must
  // not be touched).
  const journal = join(dir, 'journal-replay');
  mkdirSync(journal);
  const [row] = await ds.query(`SELECT * FROM billing.ledger_entries WHERE request_id = 'replay-1'`);
  const lost = { ...row, id: randomUUID(), request_id: 'replay-2', event_id: randomUUID(), charged_micros: 2_000 };
  writeFileSync(
    join(journal, '1.jsonl'),
    `${JSON.stringify({ ...row, id: randomUUID(), charged_micros: 5_000 })}\n${JSON.stringify(lost)}\n`,
  );
  const replaying = new EmbeddedLedger(ds, logger, { journalDir: journal });
  expect(await replaying.recover()).toBe(1);
  await replaying.drain();
  expect(await balanceMicros(ds, acc.id)).toBe(993_000);
  expect(await ledgerCount(ds, acc.id)).toBe(2);
});

test('a usage event journaled before its answer survives a kill -9 that came before its settlement', async () => {
  const acc = await domain.billing.createAccount('embedded-journal-first', 1_000_000);
  // The recorder's synchronous step only: the answer went out, the next turn (settle) never came.
  domain.journalUsage!(usageEvent(acc.id, { request_id: 'journal-first-1', cost_micros: 7_000 }));
  await domain.settle(usageEvent(acc.id, { request_id: 'journal-first-2', cost_micros: 3_000 }));
  await crashAndRestart();
  expect(await ledgerCount(ds, acc.id)).toBe(2);
  expect(await balanceMicros(ds, acc.id)).toBe(990_000);
  expect(await ledgerProvesBalance(acc.id)).toEqual({ balance: 990_000, proven: 990_000 });
});

test('a journal segment stays while one of its events has not reached a batch, and goes once it has', async () => {
  const acc = await domain.billing.createAccount('embedded-journal-guard', 1_000_000);
  const journalDir = join(dir, 'journal-guard');
  const ledger = new EmbeddedLedger(ds, logger, { journalDir, journalSegmentBytes: 600 });
  const segments = () => readdirSync(journalDir).sort((a, b) => parseInt(a) - parseInt(b));
  try {
    const waiting = usageEvent(acc.id, { request_id: 'guard-waiting', cost_micros: 1_000 });
    ledger.journalUsage(waiting);
    for (let i = 0; i < 6; i++) {
      await ledger.settle(usageEvent(acc.id, { request_id: `guard-${i}`, cost_micros: 100 }));
      await ledger.flush();
    }
    // Six commits sealed segments 1..n, but segment 1 holds the waiting event: nothing from it on goes.
    expect(segments()[0]).toBe('1.jsonl');
    expect(segments().length).toBeGreaterThan(2);
    expect(readFileSync(join(journalDir, '1.jsonl'), 'utf8')).toContain('"request_id":"guard-waiting"');
    expect(await ledger.settle(waiting)).toBe('settled');
    await ledger.settle(usageEvent(acc.id, { request_id: 'guard-last', cost_micros: 100 }));
    await ledger.flush();
    expect(segments().length).toBeLessThanOrEqual(2);
    expect(segments()[0]).not.toBe('1.jsonl');
    expect(await balanceMicros(ds, acc.id)).toBe(1_000_000 - 1_000 - 7 * 100);
  } finally {
    await ledger.drain();
  }
});

test('a journal that cannot be written (a full disk) does not stop a charge from settling', async () => {
  const acc = await domain.billing.createAccount('embedded-journal-full', 1_000_000);
  const full = jest.spyOn(LedgerJournal.prototype, 'append').mockImplementation(() => {
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  });
  try {
    expect(await domain.settle(usageEvent(acc.id, { request_id: 'journal-full-1', cost_micros: 4_000 }))).toBe('settled');
    expect(full).toHaveBeenCalled();
  } finally {
    full.mockRestore();
  }
  await domain.flush();
  expect(await ledgerCount(ds, acc.id)).toBe(1);
  expect(await balanceMicros(ds, acc.id)).toBe(996_000);
});

test('replaying a journaled usage event whose entry had committed changes nothing', async () => {
  const acc = await domain.billing.createAccount('embedded-replay-event', 1_000_000);
  const event = usageEvent(acc.id, { request_id: 'replay-event-1', cost_micros: 5_000 });
  await domain.settle(event);
  await domain.flush();
  // The event's journal line left behind, as if the process died before deleting its segment.
  const journal = join(dir, 'journal-replay-event');
  mkdirSync(journal);
  writeFileSync(join(journal, '1.jsonl'), `${JSON.stringify(event)}\n`);
  const replaying = new EmbeddedLedger(ds, logger, { journalDir: journal });
  expect(await replaying.recover()).toBe(0);
  await replaying.drain();
  expect(await balanceMicros(ds, acc.id)).toBe(995_000);
  expect(await ledgerCount(ds, acc.id)).toBe(1);
  // The replayed segment went after the replay, the new one at the clean stop.
  expect(readdirSync(journal)).toEqual([]);
});

test("a garbled line in the middle of a journal is a warning on the ledger's log, and the lines after it are still replayed", async () => {
  const acc = await domain.billing.createAccount('embedded-garbled', 1_000_000);
  const journal = join(dir, 'journal-garbled');
  mkdirSync(journal);
  const before = usageEvent(acc.id, { request_id: 'garbled-1', cost_micros: 1_000 });
  const after = usageEvent(acc.id, { request_id: 'garbled-2', cost_micros: 2_000 });
  writeFileSync(join(journal, '1.jsonl'), `${JSON.stringify(before)}\n#garbled#\n${JSON.stringify(after)}\n`);
  const logged: Array<Record<string, unknown>> = [];
  const log = createLogger('ledger-test', 'warn', { write: (line: string) => void logged.push(JSON.parse(line)) });
  const replaying = new EmbeddedLedger(ds, log, { journalDir: journal });
  expect(await replaying.recover()).toBe(2);
  await replaying.drain();
  expect(await balanceMicros(ds, acc.id)).toBe(997_000);
  expect(logged).toEqual([expect.objectContaining({ level: 'warn', segment: join(journal, '1.jsonl'), line: 2, skipped: 1 })]);
});

test('a clean stop deletes the journal once everything in it committed, and keeps it while an event waits', async () => {
  const acc = await domain.billing.createAccount('embedded-clean-stop', 1_000_000);
  const cleanDir = join(dir, 'journal-clean-stop');
  const clean = new EmbeddedLedger(ds, logger, { journalDir: cleanDir });
  const settled = usageEvent(acc.id, { request_id: 'clean-stop-1', cost_micros: 1_000 });
  clean.journalUsage(settled);
  expect(await clean.settle(settled)).toBe('settled');
  expect(readdirSync(cleanDir)).toEqual(['1.jsonl']);
  await clean.drain();
  expect(readdirSync(cleanDir)).toEqual([]);

  // Journaled before its answer, stopped before its settlement: the journal stays for the next start.
  const waitingDir = join(dir, 'journal-stop-waiting');
  const stopped = new EmbeddedLedger(ds, logger, { journalDir: waitingDir });
  stopped.journalUsage(usageEvent(acc.id, { request_id: 'clean-stop-2', cost_micros: 2_000 }));
  await stopped.drain();
  expect(readFileSync(join(waitingDir, '1.jsonl'), 'utf8')).toContain('"request_id":"clean-stop-2"');
  const next = new EmbeddedLedger(ds, logger, { journalDir: waitingDir });
  expect(await next.recover()).toBe(1);
  await next.drain();
  expect(readdirSync(waitingDir)).toEqual([]);
  expect(await ledgerCount(ds, acc.id)).toBe(2);
  expect(await balanceMicros(ds, acc.id)).toBe(997_000);
});

test('a charge whose request outlived the memory of recent requests is written once and given back', async () => {
  const acc = await domain.billing.createAccount('embedded-late-duplicate', 1_000_000);
  await domain.settle(usageEvent(acc.id, { request_id: 'late-dup-1', cost_micros: 5_000 }));
  await domain.flush();
  // A second ledger over the same store remembers no request ids, like one after many others.
  const fresh = new EmbeddedLedger(ds, logger);
  try {
    expect(await fresh.settle(usageEvent(acc.id, { request_id: 'late-dup-1', cost_micros: 5_000 }))).toBe('settled');
    expect(await fresh.settle(usageEvent(acc.id, { request_id: 'late-new-2', cost_micros: 7_000 }))).toBe('settled');
    await fresh.flush();
    expect(await balanceMicros(ds, acc.id)).toBe(1_000_000 - 5_000 - 7_000);
    expect(fresh.money.peek(acc.id)!.balance).toBe(1_000_000 - 5_000 - 7_000);
    expect(await ledgerCount(ds, acc.id)).toBe(2);
    expect(await ledgerProvesBalance(acc.id)).toEqual({ balance: 988_000, proven: 988_000 });
  } finally {
    await fresh.drain();
  }
});

/**
 * Makes the database refuse every batch of charges (one prepared statement on the data source's pg
 * pool); everything else goes through. `attempts()` counts the refused writes; `restore()` ends it.
 */
function failChargeWrites(): { attempts: () => number; restore: () => void } {
  const pool = (ds.driver as unknown as { master: Pool }).master;
  const query = pool.query.bind(pool) as (config: { name?: string }) => Promise<unknown>;
  const failing = jest.fn((config: { name?: string }) =>
    config.name === WRITE_ENTRIES_AND_BALANCES.name ? Promise.reject(new Error('database gone')) : query(config),
  );
  const spy = jest.spyOn(pool, 'query').mockImplementation(failing as never);
  return {
    attempts: () => failing.mock.calls.filter(([config]) => config.name === WRITE_ENTRIES_AND_BALANCES.name).length,
    restore: () => spy.mockRestore(),
  };
}

test('a failing database is retried with growing waits, and a stopped ledger leaves no retry behind', async () => {
  const acc = await domain.billing.createAccount('embedded-backoff', 1_000_000);
  const { attempts, restore } = failChargeWrites();
  try {
    await domain.settle(usageEvent(acc.id, { request_id: 'backoff-1', cost_micros: 1_000 }));
    await new Promise((r) => setTimeout(r, 400));
    // A fixed 5 ms window would have tried about 80 times; doubling waits try fewer than 10.
    expect(attempts()).toBeGreaterThan(1);
    expect(attempts()).toBeLessThan(10);
    await domain.stop();
    const afterStop = attempts();
    await new Promise((r) => setTimeout(r, 300));
    expect(attempts()).toBe(afterStop);
  } finally {
    restore();
  }
});

test("maintenance vacuums the accounts every time (no ANALYZE while their number holds) and analyzes the ledger once it grew by autovacuum's rule, on the lane, without error", async () => {
  const acc = await domain.billing.createAccount('embedded-maintenance', 1_000_000_000);
  const ledger = new EmbeddedLedger(ds, logger);
  const query = jest.spyOn(ds, 'query');
  const warn = jest.spyOn(logger, 'warn');
  const maintenance = () => query.mock.calls.map((c) => c[0]).filter((sql) => /VACUUM|ANALYZE/.test(sql));
  const estimatedRows = async () =>
    Number((await ds.query(`SELECT reltuples FROM pg_class WHERE oid = 'billing.ledger_entries'::regclass`))[0].reltuples);
  const settleEntries = async (n: number) => {
    for (let i = 0; i < n; i++) await ledger.settle(usageEvent(acc.id));
    await ledger.flush();
  };
  try {
    // Nothing written by this ledger yet (the start analyzed every table): the accounts only.
    await ledger.maintain();
    expect(maintenance()).toEqual(['VACUUM billing.accounts']);

    // 50 + 10 % of the rows: not yet.
    const rows = await estimatedRows();
    expect(needsAnalyze(Math.floor(50 + 0.1 * rows), rows)).toBe(false);
    await settleEntries(Math.floor(50 + 0.1 * rows));
    query.mockClear();
    await ledger.maintain();
    expect(maintenance()).toEqual(['VACUUM billing.accounts']);

    // One more passes it: analyzed, and the estimate now counts every row.
    await settleEntries(1);
    query.mockClear();
    await ledger.maintain();
    expect(maintenance()).toEqual(['VACUUM billing.accounts', 'ANALYZE billing.ledger_entries']);
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM billing.ledger_entries`);
    expect(await estimatedRows()).toBe(n);

    // The count starts again from there.
    await settleEntries(10);
    query.mockClear();
    await ledger.maintain();
    expect(maintenance()).toEqual(['VACUUM billing.accounts']);
    await Promise.all(query.mock.results.map((r) => r.value));
    expect(warn).not.toHaveBeenCalled();
  } finally {
    query.mockRestore();
    warn.mockRestore();
    await ledger.drain();
  }
});

test("maintenance analyzes the accounts only once their number grew by autovacuum's rule, not every minute", async () => {
  const ledger = new EmbeddedLedger(ds, logger);
  const query = jest.spyOn(ds, 'query');
  const maintenance = () => query.mock.calls.map((c) => c[0]).filter((sql) => /VACUUM|ANALYZE/.test(sql));
  const accounts = async () => (await ds.query(`SELECT count(*)::int AS n FROM billing.accounts`))[0].n as number;
  const createAccounts = async (n: number) => {
    for (let i = 0; i < n; i++) await domain.billing.createAccount(`embedded-analyze-${i}`, 0);
  };
  try {
    // The first run takes the accounts' number as it stands (the start analyzed every table).
    await ledger.maintain();
    await ledger.maintain();
    expect(maintenance()).toEqual(['VACUUM billing.accounts', 'VACUUM billing.accounts']);

    // 50 + 10 % more accounts: not yet.
    const rows = await accounts();
    await createAccounts(Math.floor(50 + 0.1 * rows));
    query.mockClear();
    await ledger.maintain();
    expect(maintenance()).toEqual(['VACUUM billing.accounts']);

    // One more passes it: analyzed once, and the count starts again from there.
    await createAccounts(1);
    query.mockClear();
    await ledger.maintain();
    await ledger.maintain();
    expect(maintenance()).toEqual(['VACUUM billing.accounts', 'ANALYZE billing.accounts', 'VACUUM billing.accounts']);
  } finally {
    query.mockRestore();
    await ledger.drain();
  }
});

describe('idle accounts leave memory, and come back from the ledger exactly', () => {
  test('an account unused for a maintenance interval, holding nothing, leaves memory; its next calls load it again and settle exactly', async () => {
    const acc = await domain.billing.createAccount('embedded-idle', 1_000_000);
    const ledger = new EmbeddedLedger(ds, logger);
    try {
      expect(await ledger.settle(usageEvent(acc.id, { request_id: 'idle-1', cost_micros: 4_000 }))).toBe('settled');
      await ledger.flush();
      // Used since the last sweep: it stays this time, and leaves at the next.
      await ledger.maintain();
      expect(ledger.money.peek(acc.id)).toBeDefined();
      await ledger.maintain();
      expect(ledger.money.peek(acc.id)).toBeUndefined();
      expect(ledger.money.size).toBe(0);

      expect(await ledger.settle(usageEvent(acc.id, { request_id: 'idle-2', cost_micros: 1_000 }))).toBe('settled');
      expect(ledger.money.peek(acc.id)?.balance).toBe(995_000);
      await ledger.flush();
      expect(await balanceMicros(ds, acc.id)).toBe(995_000);
      expect(await ledgerProvesBalance(acc.id)).toEqual({ balance: 995_000, proven: 995_000 });
    } finally {
      await ledger.drain();
    }
  });

  test('an account with a live hold, or a charge not written yet, stays in memory however long it is idle', async () => {
    const held = await domain.billing.createAccount('embedded-idle-held', 1_000_000);
    const charged = await domain.billing.createAccount('embedded-idle-charged', 1_000_000);
    const ledger = new EmbeddedLedger(ds, logger, { windowMs: 600_000 });
    try {
      const account = (await ledger.money.get(held.id))!;
      expect(account.hold('hold-1', 10_000, Date.now() + 60_000, Date.now())).toBe(true);
      expect(await ledger.settle(usageEvent(charged.id, { request_id: 'idle-charged-1', cost_micros: 2_000 }))).toBe('settled');
      for (let i = 0; i < 3; i++) await ledger.maintain();
      expect(ledger.money.peek(held.id)).toBe(account);
      expect(ledger.money.peek(charged.id)?.balance).toBe(998_000);

      // Once the hold is gone and the charge written, both leave at the next sweep.
      account.drop('hold-1');
      await ledger.flush();
      await ledger.maintain();
      expect(ledger.money.size).toBe(0);
      expect(await balanceMicros(ds, charged.id)).toBe(998_000);
    } finally {
      await ledger.drain();
    }
  });

  test("a failing commit's accounts stay in memory while its batch goes back to the queue, and their charges are written once the database is back", async () => {
    const acc = await domain.billing.createAccount('embedded-idle-failing', 1_000_000);
    const ledger = new EmbeddedLedger(ds, logger, { windowMs: 600_000 });
    const { restore } = failChargeWrites();
    try {
      expect(await ledger.settle(usageEvent(acc.id, { request_id: 'idle-failing-1', cost_micros: 3_000 }))).toBe('settled');
      // A sweep while the charge waits: it stays, no longer marked as used.
      await ledger.maintain();
      // The next sweep runs on the lane right behind a commit that fails: the batch is not back in the
      // queue yet when it looks.
      const flushed = ledger.flush();
      await ledger.maintain();
      expect(ledger.money.peek(acc.id)?.balance).toBe(997_000);
      await flushed;
      restore();
      await ledger.flush();
      expect(await balanceMicros(ds, acc.id)).toBe(997_000);
      expect(await ledgerProvesBalance(acc.id)).toEqual({ balance: 997_000, proven: 997_000 });
    } finally {
      restore();
      await ledger.drain();
    }
  });
});
