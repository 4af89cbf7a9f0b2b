/** Reading the ledger: an account's settled usage, newest first. */
import { microsToUsd, type LedgerEntryView } from '@unigate/contracts';
import type { DataSource } from 'typeorm';
import { findAccount } from './account-queries';
import { LedgerEntryEntity } from './entities';

/** The newest entries returned by one call; the API has no paging yet, so bound the answer. */
export const USAGE_PAGE_LIMIT = 1000;

export class LedgerService {
  constructor(private readonly ds: DataSource) {}

  async listUsage(accountId: string): Promise<LedgerEntryView[]> {
    const rows = await this.ds.transaction(async (m) => {
      await findAccount(m, accountId);
      return m.find(LedgerEntryEntity, {
        where: { accountId },
        order: { createdAt: 'DESC', occurredAt: 'DESC' },
        take: USAGE_PAGE_LIMIT,
      });
    });
    return rows.map(toView);
  }
}

function toView(e: LedgerEntryEntity): LedgerEntryView {
  return {
    id: e.id,
    request_id: e.requestId,
    model: e.model,
    kind: e.kind,
    input_tokens: e.inputTokens,
    cached_input_tokens: e.cachedInputTokens,
    output_tokens: e.outputTokens,
    cost_usd: microsToUsd(e.costMicros),
    cost_micros: e.costMicros,
    created_at: e.createdAt.toISOString(),
  };
}
