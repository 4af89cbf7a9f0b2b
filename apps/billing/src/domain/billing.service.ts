/**
 * BillingPort, the one face of billing: the edge calls it through gRPC in distributed mode and
 * directly in standalone. Each concern lives in its own class; money that is live (holds, and in
 * standalone charges not yet written) is read and changed through LiveMoney. Ids an operator types
 * (the admin API's paths) are made canonical here, once, before any of them keys anything.
 */
import {
  microsToUsd,
  type AccountMoney,
  type AccountTier,
  type AccountTierView,
  type AccountView,
  type BillingPort,
  type CreateKey,
  type DailyModelUsage,
  type DateRange,
  type KeyPrincipal,
  type KeySettingsView,
  type KeyView,
  type UsagePage,
  type UsagePageQuery,
  type QuotaView,
  type UpdateKey,
  type UserView,
} from '@unigate/contracts';
import type { AccountService } from './accounts';
import type { KeyService } from './keys';
import type { LedgerService } from './ledger';
import type { LiveMoney } from './live-money';
import type { UserService } from './users';
import { canonicalId } from './validate';

export class BillingService implements BillingPort {
  constructor(
    private readonly accounts: AccountService,
    private readonly keys: KeyService,
    private readonly ledger: LedgerService,
    private readonly live: LiveMoney,
    private readonly users: UserService,
  ) {}

  authenticate(keyHash: string): Promise<KeyPrincipal | null> {
    return this.keys.authenticate(keyHash);
  }

  releaseHold(accountId: string, holdId: string): Promise<void> {
    return this.live.releaseHold(accountId, holdId);
  }

  accountMoney(accountId: string): Promise<AccountMoney | null> {
    return this.live.load(accountId);
  }

  async createAccount(name: string, creditMicros: number, tier: AccountTier = 'paid'): Promise<AccountView> {
    const account = await this.accounts.createAccount(name, creditMicros, tier);
    return { id: account.id, name: account.name, balance_usd: microsToUsd(account.balanceMicros), reserved_usd: 0 };
  }

  async getAccount(accountId: string): Promise<AccountView> {
    accountId = canonicalId(accountId);
    const a = await this.live.view(accountId);
    return { id: accountId, name: a.name, balance_usd: microsToUsd(a.balance_micros), reserved_usd: microsToUsd(a.reserved_micros) };
  }

  async setTier(accountId: string, tier: AccountTier): Promise<AccountTierView> {
    accountId = canonicalId(accountId);
    await this.accounts.setTier(accountId, tier);
    return { id: accountId, tier };
  }

  async credit(accountId: string, amountMicros: number, reference?: string): Promise<{ balance_usd: number }> {
    accountId = canonicalId(accountId);
    return { balance_usd: microsToUsd(await this.live.credit(accountId, amountMicros, reference)) };
  }

  createKey(accountId: string, spec: CreateKey): Promise<{ id: string; key: string }> {
    return this.keys.createKey(canonicalId(accountId), spec);
  }

  revokeKey(keyId: string): Promise<void> {
    return this.keys.revokeKey(canonicalId(keyId));
  }

  updateKey(keyId: string, changes: UpdateKey): Promise<KeySettingsView> {
    return this.keys.updateKey(canonicalId(keyId), changes);
  }

  async listUsage(accountId: string, page?: UsagePageQuery): Promise<UsagePage> {
    accountId = canonicalId(accountId);
    await this.live.written();
    return this.ledger.listUsage(accountId, page);
  }

  async quota(accountId: string, range?: DateRange): Promise<QuotaView> {
    accountId = canonicalId(accountId);
    await this.live.written();
    const [ledger, reserved] = await Promise.all([this.ledger.quota(accountId, range), this.live.reserved(accountId)]);
    return { ...ledger, reserved_micros: reserved };
  }

  async usageSummary(accountId: string, range: DateRange): Promise<DailyModelUsage[]> {
    accountId = canonicalId(accountId);
    await this.live.written();
    return this.ledger.usageSummary(accountId, range);
  }

  listKeys(accountId: string): Promise<KeyView[]> {
    return this.keys.listKeys(canonicalId(accountId));
  }

  registerUser(email: string, password: string, creditMicros: number, tier: AccountTier = 'paid'): Promise<UserView> {
    return this.users.register(email, password, creditMicros, tier);
  }

  verifyUser(email: string, password: string): Promise<UserView | null> {
    return this.users.verify(email, password);
  }
}
