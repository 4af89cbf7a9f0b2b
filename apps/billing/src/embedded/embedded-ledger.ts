/**
 * The ledger of the embedded deployment (standalone: one process, PGlite), where this process is the
 * only writer. Money lives in memory (reservations/memory-money.ts): admissions hold against it, and
 * settlement charges it at once — no database statement on the request path. The ledger entries and
 * balances follow in group commits: one statement per commit window (COMMIT_WINDOW_MS) for every
 * settlement of that window (one transaction when the window also holds credits).
 *
 * Consistency: every database write and every load of an account's money run on one serial lane. A
 * batch takes its entries and the balances they produced in the same synchronous step, so what it
 * writes is always a consistent state: a crash loses at most the entries of the window not yet
 * committed, with the balance they changed — never a charge without its entry. A credit is written in
 * a batch too (relative to the stored balance, idempotent by reference) and reaches memory when it
 * committed. On shutdown, `drain()` writes everything queued.
 *
 * Crash safety: every usage event is appended to the journal (ledger-journal.ts) before the answer it
 * belongs to is written — `journalUsage()`, called synchronously by the service's UsageRecorder — and
 * settled on the next turn. A kill -9 at any point after the append loses nothing: the next start
 * settles every journaled event the ledger lacks (`recover()`).
 */
import { dropOldest, errors, GatewayError, type UsageRecorded } from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import { Gauge, Histogram } from 'prom-client';
import { metricsRegistry, SerialLane } from '@unigate/platform';
import type { DataSource, EntityManager } from 'typeorm';
import { findAccountRow, readAccount, run, type Db } from '../domain/account-queries';
import { addToBalance, insertCredit, requireRoomFor } from '../domain/accounts';
import type { LiveAccount, LiveMoney } from '../domain/live-money';
import {
  entryRow,
  INSERT_ENTRIES_SQL,
  validUsageEvent,
  WRITE_ENTRIES_AND_BALANCES,
  type EntryRow,
  type SettleOutcome,
} from '../domain/usage-event';
import { holdOf } from '../domain/usage-settler';
import { requireMicros } from '../domain/validate';
import type { AccountMoney } from '@unigate/contracts';
import { MemoryMoney } from '../reservations';
import { LedgerJournal } from './ledger-journal';

export interface EmbeddedLedgerOptions {
  /** How long a settled charge may wait before its group commit starts (default COMMIT_WINDOW_MS). */
  windowMs?: number;
  /** How often the store is vacuumed and analyzed (default one minute). */
  maintenanceMs?: number;
  /** Where the write-ahead journal lives (standalone: in its data directory); none: no journal. */
  journalDir?: string;
  /** Size at which a journal segment is sealed (default SEGMENT_BYTES; tests make it small). */
  journalSegmentBytes?: number;
}

/**
 * How long a settled charge may wait in memory before its group commit starts. The journal, not the
 * window, keeps charges through a kill -9, and ledger reads flush first (`written()`), so the window
 * only trades the database's lag for its CPU: one commit costs the embedded database's thread about
 * as much as its rows, and at 5 ms a lightly loaded gateway (~350 req/s, two events a commit) spent
 * 26 % of a core there, against 6.5 % at 50 ms.
 */
export const COMMIT_WINDOW_MS = 50;
/** Request ids remembered (the newest 87,500 to 100,000) to refuse a duplicate usage event before it reaches the database. */
const RECENT_REQUESTS = 100_000;
/** How often the embedded store is vacuumed and analyzed (it has no autovacuum daemon). */
const MAINTENANCE_INTERVAL_MS = 60_000;
/**
 * A table is analyzed when the rows added since its last ANALYZE pass this: Postgres's own
 * autovacuum rule (`autovacuum_analyze_threshold` 50 + `autovacuum_analyze_scale_factor` 0.1 of the
 * rows). ANALYZE's cost grows with the table (measured on the embedded store: the ledger 23 ms at
 * 10,000 rows, 154 ms at 100,000, 317 ms at 1,000,000; the accounts 11 ms at 5,000, 140 ms at
 * 200,000), and a table that only grows needs it ever less often.
 */
export const needsAnalyze = (addedSince: number, rowsAtLast: number): boolean => addedSince > 50 + 0.1 * rowsAtLast;
/** The longest wait between retries of a failed group commit. */
const MAX_RETRY_MS = 5_000;

export const commitLag = new Histogram({
  name: 'unigate_billing_commit_lag_seconds',
  help: 'Embedded ledger: from a charge in memory to its ledger entry committed (how far the database trails memory)',
  buckets: [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5, 1],
  registers: [metricsRegistry],
});

export const accountsInMemory = new Gauge({
  name: 'unigate_billing_accounts_in_memory',
  help: 'Embedded ledger: accounts whose money is in memory (idle ones leave it at each maintenance)',
  registers: [metricsRegistry],
});

interface PendingEntry {
  kind: 'entry';
  row: EntryRow;
  at: number;
}

interface PendingCredit {
  kind: 'credit';
  accountId: string;
  amount: number;
  reference?: string;
  done: (result: { balance: number } | { error: unknown }) => void;
}

type Pending = PendingEntry | PendingCredit;

type CreditOutcome = { credit: PendingCredit; balance: number; applied: boolean } | { credit: PendingCredit; error: unknown };

export class EmbeddedLedger implements LiveMoney {
  readonly money: MemoryMoney;
  private readonly lane = new SerialLane();
  private queue: Pending[] = [];
  /**
   * The batch a commit took, until its outcome is handled: a failed one goes back to the queue only
   * after the lane has moved on to its next job.
   */
  private committing: Pending[] = [];
  private timer?: NodeJS.Timeout;
  private readonly recent = new Set<string>();
  /** Set by drain(): a stopped ledger schedules nothing, so no timer outlives the process's stores. */
  private stopped = false;
  /** Set once drain() closed the journal: later events go to segments of their own. */
  private journalClosed = false;
  /** Consecutive failed commits: each retry waits longer (up to MAX_RETRY_MS) instead of hammering a dead database. */
  private failures = 0;
  /** Why the last commit carrying entries failed, until one carrying entries succeeds: charges wait unwritten. */
  private unwritten?: string;
  /** The last journal append failed (a full disk): charges since are not crash-safe until one succeeds. */
  private journalFailing = false;
  /** When journalStillFailing() last probed the disk (performance.now()). */
  private journalProbedAt = -Infinity;

  private readonly maintenance: NodeJS.Timeout;
  /** Ledger entries written since the ledger was last analyzed, and its row count then (undefined: not read yet). */
  private writtenSinceAnalyze = 0;
  private rowsAtAnalyze?: number;
  /** The accounts' row count when they were last analyzed (undefined: not read yet). */
  private accountsAtAnalyze?: number;
  private readonly windowMs: number;
  private readonly journal?: LedgerJournal;
  /**
   * Usage events through the journal step whose entry is not queued yet (journaled before the answer,
   * settled on the next turn, or still retrying a failed settlement): event id → the segment holding
   * it (Infinity: the append failed, none does). No segment from the oldest of these on is deleted,
   * whatever committed.
   */
  private readonly unqueued = new Map<string, number>();

  constructor(
    private readonly ds: DataSource,
    private readonly logger: Logger,
    opts: EmbeddedLedgerOptions = {},
  ) {
    this.windowMs = opts.windowMs ?? COMMIT_WINDOW_MS;
    this.journal = opts.journalDir ? new LedgerJournal(opts.journalDir, opts.journalSegmentBytes, logger) : undefined;
    this.money = new MemoryMoney((accountId) => this.load(accountId));
    this.maintenance = setInterval(() => void this.maintain(), opts.maintenanceMs ?? MAINTENANCE_INTERVAL_MS);
    this.maintenance.unref();
  }

  /**
   * Settles what an earlier process journaled but did not commit (it was killed in between): each
   * usage event the ledger lacks is charged and written, exactly as if it had just been recorded.
   * Idempotent by request id. Call before anything loads an account.
   */
  async recover(): Promise<number> {
    if (!this.journal) return 0;
    const lines = this.journal.leftovers();
    if (lines.length === 0) return 0;
    const legacy = lines.filter(isEntryRow);
    const written = (legacy.length > 0 ? await this.recoverEntries(legacy) : 0) + (await this.recoverEvents(lines));
    if (this.queue.length > 0) throw new Error('embedded ledger: the journal could not be replayed into the database');
    this.journal.committed(Number.MAX_SAFE_INTEGER - 1);
    this.logger.info({ journaled: lines.length, written }, 'embedded ledger: charges of an earlier process recovered from its journal');
    return written;
  }

  /** Journaled usage events whose request has no entry yet, settled and committed. */
  private async recoverEvents(lines: unknown[]): Promise<number> {
    const events = lines.filter((l) => !isEntryRow(l)).flatMap((l) => validUsageEvent(l, this.logger) ?? []);
    if (events.length === 0) return 0;
    const known: Array<{ request_id: string }> = await this.lane.run(() =>
      this.ds.query(`SELECT request_id FROM billing.ledger_entries WHERE request_id = ANY($1::text[])`, [events.map((e) => e.request_id)]),
    );
    const done = new Set(known.map((r) => r.request_id));
    let settled = 0;
    for (const ev of events) if (!done.has(ev.request_id) && (await this.charge(ev)) === 'settled') settled++;
    await this.flush();
    return settled;
  }

  /** Settled entries, the journal's format before it held usage events: inserted with their charges. */
  private recoverEntries(rows: EntryRow[]): Promise<number> {
    return this.lane.run(() =>
      this.ds.transaction(async (m) => {
        const written: Array<{ request_id: string }> = await m.query(INSERT_ENTRIES_SQL, [JSON.stringify(rows)]);
        const ids = new Set(written.map((r) => r.request_id));
        const charged = new Map<string, number>();
        for (const r of rows.filter((x) => ids.has(x.request_id)))
          charged.set(r.account_id, (charged.get(r.account_id) ?? 0) + r.charged_micros);
        await m.query(
          `UPDATE billing.accounts a SET balance_micros = a.balance_micros - c.charged FROM jsonb_to_recordset($1::jsonb) AS c(id uuid, charged bigint) WHERE a.id = c.id`,
          [JSON.stringify([...charged].map(([id, amount]) => ({ id, charged: amount })))],
        );
        return written.length;
      }),
    );
  }

  /**
   * The embedded store has no autovacuum: every group commit rewrites account rows, and their dead
   * versions would pile up for as long as the process runs. The accounts are vacuumed every time
   * (under a millisecond at 200,000 accounts: it skips the pages nothing changed) and analyzed, as
   * the ledger is, only once they grew by autovacuum's rule (`needsAnalyze`): ANALYZE reads a sample
   * of the whole table whatever changed, and this lane (every commit) and the store wait for it.
   * VACUUM keeps the accounts' row estimate current, which is what the rule compares. Done on the
   * lane, between commits, after idle accounts have left memory.
   */
  maintain(): Promise<void> {
    return this.lane
      .run(async () => {
        this.dropIdleAccounts();
        await this.ds.query('VACUUM billing.accounts');
        const accounts = await this.estimatedRows('billing.accounts');
        this.accountsAtAnalyze ??= accounts;
        if (needsAnalyze(accounts - this.accountsAtAnalyze, this.accountsAtAnalyze)) {
          await this.ds.query('ANALYZE billing.accounts');
          this.accountsAtAnalyze = accounts;
        }
        this.rowsAtAnalyze ??= await this.estimatedRows('billing.ledger_entries');
        if (!needsAnalyze(this.writtenSinceAnalyze, this.rowsAtAnalyze)) return;
        await this.ds.query('ANALYZE billing.ledger_entries');
        // Nothing commits meanwhile: commits run on this lane too.
        this.writtenSinceAnalyze = 0;
        this.rowsAtAnalyze = await this.estimatedRows('billing.ledger_entries');
      })
      .catch((err: unknown) => this.logger.warn({ err: String(err) }, 'embedded store maintenance failed'));
  }

  /**
   * Idle accounts leave memory. On the lane, so no commit is under way: an account with nothing queued
   * (nor in a failed batch on its way back to the queue) has its balance in the database, which the
   * next load (on this lane too) reads.
   */
  private dropIdleAccounts(): void {
    const pending = new Set([...this.committing, ...this.queue].map((p) => (p.kind === 'entry' ? p.row.account_id : p.accountId)));
    this.money.dropIdle(Date.now(), (id) => pending.has(id));
    accountsInMemory.set(this.money.size);
  }

  /** A table's row count as its last VACUUM or ANALYZE (or the start's) estimated it: no scan. */
  private async estimatedRows(table: 'billing.accounts' | 'billing.ledger_entries'): Promise<number> {
    const [row] = await this.ds.query(`SELECT reltuples FROM pg_class WHERE oid = $1::regclass`, [table]);
    // -1: never analyzed.
    return Math.max(0, Number(row?.reltuples ?? 0));
  }

  /**
   * The first step of a charge, on the answer's path (before it is written): the usage event goes to
   * the journal, so that from here on a crash cannot lose it. `settle()` follows.
   */
  journalUsage(event: UsageRecorded): void {
    if (!this.journal) return;
    let segment = Infinity;
    try {
      // After the stop too: a call cut at the shutdown deadline records its usage after the drain, and
      // the next start settles it from here.
      segment = this.journalClosed ? this.journal.appendAfterClose(event) : this.journal.append(event);
      this.journalFailing = false;
    } catch (err) {
      this.journalFailing = true;
      // A full or broken disk: the charge still settles, without the journal's crash safety. Marked
      // anyway, so settle() does not try the append a second time.
      this.logger.error({ request_id: event.request_id, err: String(err) }, 'usage could not be journaled; settling without it');
    }
    this.unqueued.set(event.event_id, segment);
  }

  /** Settles a usage event: charged in memory now, its entry written in the next group commit. */
  async settle(payload: unknown): Promise<SettleOutcome> {
    const ev = validUsageEvent(payload, this.logger);
    if (!ev) {
      // Never chargeable: its journal line may go (a replay would reject it again).
      const id = (payload as { event_id?: unknown } | null)?.event_id;
      if (typeof id === 'string') this.unqueued.delete(id);
      return 'rejected';
    }
    // A caller that did not journal it first (a test, a replay tool): journaled now, before the charge.
    if (!this.unqueued.has(ev.event_id)) this.journalUsage(ev);
    const outcome = await this.charge(ev);
    // Queued (or never to be): the commit that carries its entry may delete its segment. A settlement
    // that threw keeps its mark: the recorder retries it, and a later start replays it if all fail. So
    // does one after the stop (nothing queues then): drain() keeps its segment for the next start.
    if (!this.stopped) this.unqueued.delete(ev.event_id);
    return outcome;
  }

  private async charge(ev: UsageRecorded): Promise<SettleOutcome> {
    const account = this.money.peek(ev.account_id) ?? (await this.money.get(ev.account_id));
    if (!account) {
      this.logger.error({ event_id: ev.event_id, account_id: ev.account_id }, 'rejecting usage for an unknown account');
      return 'rejected';
    }
    if (this.recent.has(ev.request_id)) return 'duplicate';
    this.remember(ev.request_id);
    account.drop(holdOf(ev));
    const charged = account.charge(ev.cost_micros);
    if (charged < ev.cost_micros) this.clamped(ev, charged);
    this.enqueue({ kind: 'entry', row: entryRow(ev, charged, account.balance), at: performance.now() });
    return 'settled';
  }

  async view(accountId: string): Promise<LiveAccount> {
    const row = await readAccount(this.ds, accountId);
    const account = await this.money.get(accountId);
    return { name: row.name, balance_micros: account?.balance ?? row.balanceMicros, reserved_micros: account?.reserved ?? 0 };
  }

  async reserved(accountId: string): Promise<number> {
    return this.money.peek(accountId)?.reservedAt(Date.now()) ?? 0;
  }

  credit(accountId: string, amountMicros: number, reference?: string): Promise<number> {
    requireMicros(amountMicros, 'amount_micros', { positive: true });
    return new Promise((resolve, reject) =>
      this.enqueue({
        kind: 'credit',
        accountId,
        amount: amountMicros,
        reference,
        done: (r) => ('error' in r ? reject(r.error) : resolve(r.balance)),
      }),
    );
  }

  async releaseHold(accountId: string, holdId: string): Promise<void> {
    this.money.peek(accountId)?.drop(holdId);
  }

  /** The ledger's money, read on the lane (never between a write and its memory update). */
  load(accountId: string): Promise<AccountMoney | null> {
    return this.lane.run(async () => {
      const row = await findAccountRow(this.ds, accountId);
      return row && { balance_micros: row.balanceMicros, version: row.version };
    });
  }

  /**
   * For readiness: throws while charges wait on commits the database keeps refusing, or while the
   * journal cannot be appended to (a full disk). Answers still go out then, charged in memory and
   * written once the disk has room; but a crash meanwhile would lose those charges, and an operator
   * must see it (/health/ready, not only an error line per commit).
   */
  checkWritable(): void {
    // Only while entries wait: they are retried until a commit carrying them succeeds, which clears this.
    // A batch of credits alone that failed was answered 503 and leaves nothing unwritten.
    if (this.unwritten !== undefined) {
      const waiting = this.queue.filter((p) => p.kind === 'entry').length;
      throw new Error(`ledger commits are failing, entries waiting (${waiting} queued now): ${this.unwritten}`);
    }
    // Cleared by the next append that succeeds, or here by a probe write beside the journal: on an idle
    // gateway (a probe failing takes it out of rotation) no append would come to clear it.
    if (this.journalFailing && !this.journal?.writable())
      throw new Error('the ledger journal cannot be written: charges since are not crash-safe');
    this.journalFailing = false;
  }

  /**
   * Why a billable call must be refused now, or undefined: while the journal cannot be appended to
   * (or there is none) and commits carrying entries keep failing, a charge exists in memory only and
   * a crash would lose it, however long the disk stays full. Refusing new holds keeps what a kill
   * can lose to the charges taken before (the brief's "nothing lost on a crash"); a commit that
   * succeeds lifts it, and the retry timer keeps trying with no traffic.
   */
  refusal(): GatewayError | undefined {
    if (this.unwritten === undefined || (this.journal && !this.journalStillFailing())) return undefined;
    return errors.unavailable('The ledger cannot record charges right now (its storage is failing); retry shortly.', 5);
  }

  /**
   * Whether the last append's failure still holds: refused calls append nothing that could clear it,
   * so the disk is probed again, at most once a second (a database that stays broken would otherwise
   * keep every billable call refused after the disk had room for the journal again).
   */
  private journalStillFailing(): boolean {
    if (!this.journalFailing) return false;
    const now = performance.now();
    if (now - this.journalProbedAt < 1000) return true;
    this.journalProbedAt = now;
    if (this.journal?.writable()) this.journalFailing = false;
    return this.journalFailing;
  }

  /** Ledger reads (quota, usage lists) wait for this: they see every charge taken before them. */
  written(): Promise<void> {
    return this.flush();
  }

  /** Writes everything queued now and keeps running. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (let attempt = 0; attempt < 5 && this.queue.length > 0; attempt++) await this.commit();
    await this.lane.idle();
  }

  /** Writes everything queued and stops (shutdown: nothing settled is lost on SIGTERM). */
  async drain(): Promise<void> {
    this.stopped = true;
    clearInterval(this.maintenance);
    await this.flush();
    // Everything journaled committed: nothing is left for the next start to read back.
    if (this.queue.length === 0 && this.unqueued.size === 0) this.journal?.retire();
    else this.journal?.close();
    this.journalClosed = true;
    if (this.queue.length > 0) {
      // The database is gone: the journal keeps the entries for the next start (recover()); the log
      // has them too, for an operator when there is no journal.
      this.logger.error(
        { entries: this.queue.filter((p) => p.kind === 'entry').map((p) => (p as PendingEntry).row), journaled: Boolean(this.journal) },
        'embedded ledger could not write on shutdown',
      );
    }
  }

  private enqueue(p: Pending): void {
    if (this.stopped) {
      // After shutdown nothing writes any more: refuse a credit; a late charge is in the journal for the
      // next start (journalUsage), or with no journal in the log to replay.
      if (p.kind === 'credit') p.done({ error: ledgerUnavailable() });
      else if (this.journal)
        this.logger.warn({ request_id: p.row.request_id }, 'embedded ledger settled after shutdown; journaled for the next start');
      else this.logger.error({ entries: [p.row] }, 'embedded ledger settled after shutdown; entry not written');
      return;
    }
    this.queue.push(p);
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    const delay = this.failures === 0 ? this.windowMs : Math.min(MAX_RETRY_MS, this.windowMs * 2 ** this.failures);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.commit();
    }, delay);
  }

  /**
   * Writes what is queued. The batch and the balances it produced are taken in one synchronous step
   * when the job starts on the lane — after every earlier batch committed and reached memory — so a
   * batch never carries a balance older than what the database already has.
   */
  private commit(): Promise<void> {
    let batch: Pending[] = [];
    let carriesEntries = false;
    let segment: number | undefined;
    return this.lane
      .run(() => {
        batch = this.queue;
        this.committing = batch;
        this.queue = [];
        if (batch.length === 0) return Promise.resolve();
        carriesEntries = batch.some((p) => p.kind === 'entry');
        // Segments up to this one hold only this batch's entries and earlier ones (those of failed
        // batches, which this batch carries again): once it commits they can go.
        if (carriesEntries) segment = this.journal?.seal();
        const balances = new Map<string, number>();
        for (const p of batch) if (p.kind === 'entry') balances.set(p.row.account_id, this.money.peek(p.row.account_id)!.balance);
        return this.write(batch, balances);
      })
      .then(() => {
        if (this.committing === batch) this.committing = [];
        // An empty commit (a timer finding the queue taken) says nothing about the database.
        if (batch.length > 0) this.failures = 0;
        if (carriesEntries) this.unwritten = undefined;
        if (segment !== undefined) this.journal?.committed(Math.min(segment, this.oldestUnqueued() - 1));
      })
      .catch((err: unknown) => {
        this.failures = Math.min(this.failures + 1, 16);
        if (carriesEntries) this.unwritten = String(err);
        // The database refused the batch: keep its entries for the next window rather than lose them;
        // its credits fail (their caller retries, idempotent by reference): a 503 to retry, not a 500.
        this.logger.error({ err: String(err), entries: batch.length }, 'embedded ledger commit failed; retrying');
        for (const p of batch) if (p.kind === 'credit') p.done({ error: ledgerUnavailable() });
        this.queue = [...batch.filter((p) => p.kind === 'entry'), ...this.queue];
        if (this.committing === batch) this.committing = [];
        if (this.queue.length > 0) this.schedule();
      });
  }

  private async write(batch: Pending[], balances: Map<string, number>): Promise<void> {
    const entries = batch.filter((p): p is PendingEntry => p.kind === 'entry');
    const credits = batch.filter((p): p is PendingCredit => p.kind === 'credit');
    let outcomes: CreditOutcome[] = [];
    if (credits.length === 0) {
      // The usual batch: one prepared statement, one round trip to the database (atomic on its own).
      await this.writeEntries(this.ds, entries, balances);
    } else {
      outcomes = await this.ds.transaction(async (m) => {
        if (entries.length > 0) await this.writeEntries(m, entries, balances);
        const done: CreditOutcome[] = [];
        for (const credit of credits) done.push(await this.writeCredit(m, credit));
        return done;
      });
    }
    this.writtenSinceAnalyze += entries.length;
    const now = performance.now();
    for (const e of entries) commitLag.observe((now - e.at) / 1000);
    for (const o of outcomes) {
      if ('error' in o) {
        o.credit.done({ error: o.error });
        continue;
      }
      // Committed: now memory may count it (an account loaded later reads it from the database).
      const account = this.money.peek(o.credit.accountId);
      if (account && o.applied) account.balance += o.credit.amount;
      o.credit.done({ balance: account?.balance ?? o.balance });
    }
  }

  private async writeEntries(db: Db, entries: PendingEntry[], balances: Map<string, number>): Promise<void> {
    const inserted = await run<{ request_id: string }>(db, WRITE_ENTRIES_AND_BALANCES, [
      JSON.stringify(entries.map((e) => e.row)),
      JSON.stringify([...balances].map(([id, balance]) => ({ id, balance }))),
    ]);
    if (inserted.length === entries.length) return;
    // Only possible for a duplicate that outlived the memory of recent requests: it was charged in
    // memory but its request already has an entry. The statement gave the charge back to the stored
    // balance; memory gets it back too.
    const written = new Set(inserted.map((r) => r.request_id));
    for (const e of entries.filter((x) => !written.has(x.row.request_id))) {
      this.logger.error({ request_id: e.row.request_id }, 'duplicate usage reached the embedded ledger; charge returned');
      this.money.peek(e.row.account_id)!.balance += e.row.charged_micros;
    }
  }

  private async writeCredit(m: EntityManager, credit: PendingCredit): Promise<CreditOutcome> {
    try {
      const row = await readAccount(m, credit.accountId);
      requireRoomFor(row.balanceMicros, credit.amount);
      const applied = await insertCredit(m, credit.accountId, credit.amount, credit.reference);
      if (!applied) return { credit, balance: row.balanceMicros, applied };
      return { credit, balance: (await addToBalance(m, credit.accountId, credit.amount)).balance_micros, applied };
    } catch (error) {
      // A refusal of this credit (unknown account, no room, a conflicting reference) fails it alone.
      // A database error aborted the transaction: Postgres would answer its COMMIT with a rollback, and
      // the batch's entries, taken for written, would be lost. The batch fails instead and is retried.
      if (!GatewayError.is(error)) throw error;
      return { credit, error };
    }
  }

  /** The oldest segment holding an event whose entry is not queued yet (Infinity: none). */
  private oldestUnqueued(): number {
    let oldest = Infinity;
    for (const seq of this.unqueued.values()) if (seq < oldest) oldest = seq;
    return oldest;
  }

  private remember(requestId: string): void {
    this.recent.add(requestId);
    dropOldest(this.recent, RECENT_REQUESTS);
  }

  private clamped(ev: UsageRecorded, charged: number): void {
    this.logger.warn(
      { request_id: ev.request_id, account_id: ev.account_id, cost_micros: ev.cost_micros, charged_micros: charged },
      'usage cost exceeded the balance; clamped at zero',
    );
  }
}

/** A credit the ledger could not write now (its database refused the batch: a full disk, say), or after the stop. */
function ledgerUnavailable(): GatewayError {
  return errors.unavailable(
    'The ledger cannot be written right now; retry shortly (a credit repeated with its reference is applied once).',
    1,
  );
}

/** A line of a journal written before it held usage events: a settled entry (it has its charge). */
function isEntryRow(line: unknown): line is EntryRow {
  return typeof line === 'object' && line !== null && 'charged_micros' in line;
}
