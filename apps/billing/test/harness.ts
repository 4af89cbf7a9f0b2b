/** Shared setup for billing's integration tests: a fresh database per file and the composed domain. */
import { randomUUID } from 'node:crypto';
import type { UsageRecorded } from '@unigate/contracts';
import { createLogger, InMemoryEventBus, type EventBus } from '@unigate/platform';
import { createTestDatabase, type TestDatabase } from '@unigate/testing';
import type { DataSource } from 'typeorm';
import { createBillingDomain, openBillingDataSource, type BillingDomain } from '../src';

export const logger = createLogger('billing-test', 'silent');

export interface Harness {
  db: TestDatabase;
  ds: DataSource;
  bus: InMemoryEventBus;
  domain: BillingDomain;
  close(): Promise<void>;
}

export async function startHarness(opts: { bus?: EventBus; holdTtlMs?: number; poolSize?: number } = {}): Promise<Harness> {
  const db = await createTestDatabase('billing');
  const ds = await openBillingDataSource({ url: db.url, logger, poolSize: opts.poolSize });
  const bus = new InMemoryEventBus({ logger, retryBackoff: { initialMs: 10, maxMs: 50 } });
  const domain = createBillingDomain({ dataSource: ds, bus: opts.bus ?? bus, logger, holdTtlMs: opts.holdTtlMs });
  return {
    db,
    ds,
    bus,
    domain,
    close: async () => {
      await domain.stop();
      await bus.close();
      await ds.destroy();
      await db.drop();
    },
  };
}

export function usageEvent(accountId: string, fields: Partial<UsageRecorded> = {}): UsageRecorded {
  return {
    event_id: randomUUID(),
    request_id: `req_${randomUUID()}`,
    account_id: accountId,
    key_id: 'key_test',
    hold_id: null,
    model: 'gpt-test',
    kind: 'chat',
    units: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 20 },
    cost_micros: 1_000,
    occurred_at: new Date().toISOString(),
    ...fields,
  };
}

export async function ledgerCount(ds: DataSource, accountId: string): Promise<number> {
  const [row] = await ds.query(`SELECT count(*)::int AS n FROM billing.ledger_entries WHERE account_id = $1`, [accountId]);
  return row.n as number;
}

export async function balanceMicros(ds: DataSource, accountId: string): Promise<number> {
  const [row] = await ds.query(`SELECT balance_micros FROM billing.accounts WHERE id = $1`, [accountId]);
  return Number(row.balance_micros);
}

export async function waitFor(what: string, cond: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
