/**
 * A concurrent storm on one account for the reservation-counter tests: many workers place holds and
 * then release them, settle them (single statement or batch transaction, each delivered twice),
 * or abandon them to expire — while a sweeper deletes expired holds and a sampler checks, in one
 * snapshot each time, that the counter equals the sum of the holds and that nothing is reserved
 * beyond the balance.
 */
import type { UsageRecorded } from '@unigate/contracts';
import type { DataSource } from 'typeorm';
import type { BillingDomain } from '../src';
import { sweepExpiredHolds } from '../src/domain/hold-sweeper';
import { usageEvent } from './harness';

export interface StormOptions {
  accountId: string;
  workers: number;
  rounds: number;
}

export interface StormResult {
  placed: number;
  refused: number;
  released: number;
  abandoned: number;
  /** request id → cost, for every request whose usage was settled. */
  settled: Map<string, number>;
  samples: number;
  violations: string[];
}

export interface Money {
  balance: number;
  reserved: number;
  held: number;
  holds: number;
}

/** Balance, counter and the real sum of holds, in one statement (one snapshot). */
export async function readMoney(ds: DataSource, accountId: string): Promise<Money> {
  const [r] = await ds.query(
    `SELECT a.balance_micros::text AS balance, a.reserved_micros::text AS reserved,
            (SELECT COALESCE(SUM(h.amount_micros), 0) FROM billing.holds h WHERE h.account_id = a.id)::text AS held,
            (SELECT count(*) FROM billing.holds h WHERE h.account_id = a.id)::int AS holds
     FROM billing.accounts a WHERE a.id = $1`,
    [accountId],
  );
  return { balance: Number(r.balance), reserved: Number(r.reserved), held: Number(r.held), holds: r.holds };
}

const rand = (n: number) => Math.floor(Math.random() * n);
const yieldNow = () => new Promise((r) => setImmediate(r));

export async function runStorm(domain: BillingDomain, ds: DataSource, o: StormOptions): Promise<StormResult> {
  const result: StormResult = { placed: 0, refused: 0, released: 0, abandoned: 0, settled: new Map(), samples: 0, violations: [] };
  let running = true;

  const sampler = (async () => {
    while (running) {
      const m = await readMoney(ds, o.accountId);
      result.samples++;
      if (m.reserved !== m.held) result.violations.push(`counter ${m.reserved} != holds ${m.held}`);
      if (m.reserved > m.balance) result.violations.push(`reserved ${m.reserved} > balance ${m.balance}`);
      if (m.balance < 0) result.violations.push(`balance ${m.balance} < 0`);
    }
  })();
  const sweeper = (async () => {
    while (running) {
      await sweepExpiredHolds(ds);
      await new Promise((r) => setTimeout(r, 30));
    }
  })();

  // Batched deliveries, each batch delivered a second time (as Kafka may after a rebalance).
  let queued: UsageRecorded[] = [];
  const flush = async () => {
    const batch = queued;
    queued = [];
    if (batch.length === 0) return;
    const outcomes = await domain.settler.handleBatch(batch);
    if (outcomes.some((x) => x !== 'settled')) result.violations.push(`fresh batch outcomes ${outcomes.join(',')}`);
    const again = await domain.settler.handleBatch([...batch].reverse());
    if (again.some((x) => x !== 'duplicate')) result.violations.push(`replayed batch outcomes ${again.join(',')}`);
  };
  const batcher = (async () => {
    while (running) {
      await flush();
      await new Promise((r) => setTimeout(r, 10));
    }
  })();

  await Promise.all(
    Array.from({ length: o.workers }, async (_, w) => {
      for (let r = 0; r < o.rounds; r++) {
        const amount = 1_000 + rand(4_000);
        const request_id = `storm-${w}-${r}-${rand(1e9)}`;
        let hold_id: string;
        try {
          ({ hold_id } = await domain.billing.placeHold({ request_id, account_id: o.accountId, key_id: 'k', amount_micros: amount }));
          result.placed++;
        } catch (err) {
          if ((err as { status?: number }).status !== 402) throw err;
          result.refused++;
          continue;
        }
        await yieldNow();
        const cost = rand(amount + 1);
        const action = rand(10);
        if (action < 3) {
          await domain.billing.releaseHold(hold_id);
          await domain.billing.releaseHold(hold_id);
          result.released++;
        } else if (action < 6) {
          const ev = usageEvent(o.accountId, { request_id, hold_id, cost_micros: cost });
          result.settled.set(request_id, cost);
          const [first, second] = await Promise.all([
            domain.settler.handle(ev),
            domain.settler.handle({ ...ev, event_id: `${ev.event_id}-again` }),
          ]);
          if ([first, second].sort().join() !== 'duplicate,settled') result.violations.push(`single settle outcomes ${first},${second}`);
        } else if (action < 9) {
          result.settled.set(request_id, cost);
          queued.push(usageEvent(o.accountId, { request_id, hold_id, cost_micros: cost }));
        } else {
          result.abandoned++;
        }
      }
    }),
  );
  await flush();
  running = false;
  await Promise.all([sampler, sweeper, batcher]);
  await flush();
  return result;
}
