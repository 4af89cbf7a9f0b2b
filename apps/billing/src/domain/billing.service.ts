/**
 * BillingPort, the one face of billing: the edge calls it through gRPC in distributed mode and
 * directly in standalone. Each concern lives in its own class; money that is live (holds, and in
 * standalone charges not yet written) is read and changed through LiveMoney.
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
    const a = await this.live.view(accountId);
    return { id: accountId, name: a.name, balance_usd: microsToUsd(a.balance_micros), reserved_usd: microsToUsd(a.reserved_micros) };
  }

  async setTier(accountId: string, tier: AccountTier): Promise<AccountTierView> {
    await this.accounts.setTier(accountId, tier);
    return { id: accountId, tier };
  }

  async credit(accountId: string, amountMicros: number, reference?: string): Promise<{ balance_usd: number }> {
    return { balance_usd: microsToUsd(await this.live.credit(accountId, amountMicros, reference)) };
  }

  createKey(accountId: string, spec: CreateKey): Promise<{ id: string; key: string }> {
    return this.keys.createKey(accountId, spec);
  }

  revokeKey(keyId: string): Promise<void> {
    return this.keys.revokeKey(keyId);
  }

  updateKey(keyId: string, changes: UpdateKey): Promise<KeySettingsView> {
    return this.keys.updateKey(keyId, changes);
  }

  async listUsage(accountId: string, page?: UsagePageQuery): Promise<UsagePage> {
    await this.live.written();
    return this.ledger.listUsage(accountId, page);
  }

  async quota(accountId: string, range?: DateRange): Promise<QuotaView> {
    await this.live.written();
    const [ledger, reserved] = await Promise.all([this.ledger.quota(accountId, range), this.live.reserved(accountId)]);
    return { ...ledger, reserved_micros: reserved };
  }

  async usageSummary(accountId: string, range: DateRange): Promise<DailyModelUsage[]> {
    await this.live.written();
    return this.ledger.usageSummary(accountId, range);
  }

  listKeys(accountId: string): Promise<KeyView[]> {
    return this.keys.listKeys(accountId);
  }

  registerUser(email: string, password: string, creditMicros: number, tier: AccountTier = 'paid'): Promise<UserView> {
    return this.users.register(email, password, creditMicros, tier);
  }

  verifyUser(email: string, password: string): Promise<UserView | null> {
    return this.users.verify(email, password);
  }
}
