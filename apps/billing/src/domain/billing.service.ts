/**
 * BillingPort, the one face of billing: the edge calls it through gRPC in distributed mode and
 * directly in standalone. Each concern lives in its own class; this only delegates.
 */
import type { AccountView, BillingPort, CreateKey, DateRange, HoldRequest, KeyPrincipal, LedgerEntryView, QuotaView } from '@unigate/contracts';
import type { AccountService } from './accounts';
import type { HoldService } from './holds';
import type { KeyService } from './keys';
import type { LedgerService } from './ledger';

export class BillingService implements BillingPort {
  constructor(
    private readonly accounts: AccountService,
    private readonly keys: KeyService,
    private readonly holds: HoldService,
    private readonly ledger: LedgerService,
  ) {}

  authenticate(keyHash: string): Promise<KeyPrincipal | null> {
    return this.keys.authenticate(keyHash);
  }

  placeHold(req: HoldRequest): Promise<{ hold_id: string }> {
    return this.holds.placeHold(req);
  }

  releaseHold(holdId: string): Promise<void> {
    return this.holds.releaseHold(holdId);
  }

  createAccount(name: string, creditMicros: number): Promise<AccountView> {
    return this.accounts.createAccount(name, creditMicros);
  }

  getAccount(accountId: string): Promise<AccountView> {
    return this.accounts.getAccount(accountId);
  }

  credit(accountId: string, amountMicros: number, reference?: string): Promise<{ balance_usd: number }> {
    return this.accounts.credit(accountId, amountMicros, reference);
  }

  createKey(accountId: string, spec: CreateKey): Promise<{ id: string; key: string }> {
    return this.keys.createKey(accountId, spec);
  }

  revokeKey(keyId: string): Promise<void> {
    return this.keys.revokeKey(keyId);
  }

  listUsage(accountId: string): Promise<LedgerEntryView[]> {
    return this.ledger.listUsage(accountId);
  }

  quota(accountId: string, range?: DateRange): Promise<QuotaView> {
    return this.ledger.quota(accountId, range);
  }
}
