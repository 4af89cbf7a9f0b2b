import {
  tierFromWire,
  usageSchema,
  type AccountTier,
  type AccountTierView,
  type AccountView,
  type BillingPort,
  type CreateKey,
  type DailyModelUsage,
  type DateRange,
  type AccountMoney,
  type KeyPrincipal,
  type KeySettingsView,
  type KeyView,
  type LedgerEntryView,
  type QuotaView,
  type UpdateKey,
  type UsagePage,
  type UsagePageQuery,
  type UserView,
} from '@unigate/contracts';
import { decodeJson } from '@unigate/platform';
import { CONTROL_CALL_DEADLINE_MS, grpcClient, unary } from '@unigate/platform/distributed';
import type {
  AccountMoneyReply__Output,
  Account__Output,
  AuthenticateReply__Output,
  BillingServiceClient,
  CreatedKey__Output,
  CreditReply__Output,
  KeyList__Output,
  KeySettings__Output,
  SetAccountTierRequest__Output,
  Quota__Output,
  UsageList__Output,
  UsageSummary__Output,
  User__Output,
  VerifyUserReply__Output,
} from '@unigate/proto';

/**
 * A key lookup waits at most this long: it stands between a client and its answer, and when billing
 * cannot answer the edge still serves keys it knows (auth/authenticator.ts).
 */
export const AUTHENTICATE_DEADLINE_MS = 2_000;

/** Billing over gRPC. Money crosses as int64 strings (micro-USD), never floats. */
export class GrpcBillingClient implements BillingPort {
  private readonly client: BillingServiceClient;

  constructor(url: string) {
    this.client = grpcClient('billing', url);
  }

  private call<Res>(method: keyof BillingServiceClient, req: object, deadlineMs = CONTROL_CALL_DEADLINE_MS): Promise<Res> {
    const fn = (this.client[method] as unknown as (...args: unknown[]) => never).bind(this.client);
    return unary<object, Res>(fn, req, { deadlineMs });
  }

  async authenticate(keyHash: string): Promise<KeyPrincipal | null> {
    const reply = await this.call<AuthenticateReply__Output>('Authenticate', { key_hash: keyHash }, AUTHENTICATE_DEADLINE_MS);
    if (!reply.found || !reply.principal) return null;
    const p = reply.principal;
    return {
      key_id: p.key_id,
      account_id: p.account_id,
      models: p.models,
      rate_limit_rpm: p.rate_limit_rpm || null,
      max_concurrency: p.max_concurrency || null,
      tier: tierFromWire(p.tier),
    };
  }

  async releaseHold(accountId: string, holdId: string): Promise<void> {
    await this.call('ReleaseHold', { account_id: accountId, hold_id: holdId });
  }

  async accountMoney(accountId: string): Promise<AccountMoney | null> {
    const reply = await this.call<AccountMoneyReply__Output>('GetAccountMoney', { account_id: accountId });
    return reply.found ? { balance_micros: Number(reply.balance_micros), version: Number(reply.version) } : null;
  }

  createAccount(name: string, creditMicros: number, tier: AccountTier = 'paid'): Promise<AccountView> {
    return this.call<Account__Output>('CreateAccount', { name, credit_micros: String(creditMicros), tier });
  }

  getAccount(accountId: string): Promise<AccountView> {
    return this.call<Account__Output>('GetAccount', { account_id: accountId });
  }

  async setTier(accountId: string, tier: AccountTier): Promise<AccountTierView> {
    const set = await this.call<SetAccountTierRequest__Output>('SetAccountTier', { account_id: accountId, tier });
    return { id: set.account_id, tier: tierFromWire(set.tier) };
  }

  credit(accountId: string, amountMicros: number, reference?: string): Promise<{ balance_usd: number }> {
    return this.call<CreditReply__Output>('Credit', {
      account_id: accountId,
      amount_micros: String(amountMicros),
      reference: reference ?? '',
    });
  }

  createKey(accountId: string, spec: CreateKey): Promise<{ id: string; key: string }> {
    return this.call<CreatedKey__Output>('CreateKey', {
      account_id: accountId,
      name: spec.name ?? '',
      models: spec.models ?? [],
      rate_limit_rpm: spec.rate_limit_rpm ?? 0,
      max_concurrency: spec.max_concurrency ?? 0,
    });
  }

  async revokeKey(keyId: string): Promise<void> {
    await this.call('RevokeKey', { key_id: keyId });
  }

  async updateKey(keyId: string, changes: UpdateKey): Promise<KeySettingsView> {
    // Absent fields stay absent on the wire; null travels as empty, an empty list or 0 (proto3 has no null).
    const k = await this.call<KeySettings__Output>('UpdateKey', {
      key_id: keyId,
      ...(changes.name !== undefined && { name: changes.name ?? '' }),
      ...(changes.models !== undefined && { models: { models: changes.models ?? [] } }),
      ...(changes.rate_limit_rpm !== undefined && { rate_limit_rpm: changes.rate_limit_rpm ?? 0 }),
      ...(changes.max_concurrency !== undefined && { max_concurrency: changes.max_concurrency ?? 0 }),
    });
    return {
      ...k,
      name: k.name || null,
      models: k.models.length ? k.models : null,
      rate_limit_rpm: k.rate_limit_rpm || null,
      max_concurrency: k.max_concurrency || null,
    };
  }

  async listUsage(accountId: string, page: UsagePageQuery = {}): Promise<UsagePage> {
    const reply = await this.call<UsageList__Output>('ListUsage', {
      account_id: accountId,
      limit: page.limit ?? 0,
      after: page.after ?? '',
    });
    const entries = reply.entries.map((e): LedgerEntryView => ({
      id: e.id,
      request_id: e.request_id,
      model: e.model,
      kind: e.kind,
      input_tokens: Number(e.input_tokens),
      cached_input_tokens: Number(e.cached_input_tokens),
      output_tokens: Number(e.output_tokens),
      units: decodeJson(usageSchema, e.units, 'ledger units', 'peer'),
      cost_micros: Number(e.cost_micros),
      cost_usd: Number(e.cost_micros) / 1_000_000,
      created_at: e.created_at,
    }));
    return { entries, has_more: reply.has_more };
  }

  async quota(accountId: string, range?: DateRange): Promise<QuotaView> {
    const q = await this.call<Quota__Output>('GetQuota', { account_id: accountId, from: range?.from ?? '', to: range?.to ?? '' });
    return {
      balance_micros: Number(q.balance_micros),
      used_micros: Number(q.used_micros),
      reserved_micros: Number(q.reserved_micros),
      daily: q.daily.map((d) => ({ date: d.date, charged_micros: Number(d.charged_micros) })),
    };
  }

  async usageSummary(accountId: string, range: DateRange): Promise<DailyModelUsage[]> {
    const reply = await this.call<UsageSummary__Output>('GetUsageSummary', { account_id: accountId, from: range.from, to: range.to });
    return reply.rows.map((r) => ({
      date: r.date,
      model: r.model,
      requests: Number(r.requests),
      input_tokens: Number(r.input_tokens),
      output_tokens: Number(r.output_tokens),
      cost_micros: Number(r.cost_micros),
    }));
  }

  async listKeys(accountId: string): Promise<KeyView[]> {
    const reply = await this.call<KeyList__Output>('ListKeys', { account_id: accountId });
    return reply.keys.map((k) => ({ ...k, name: k.name || null, revoked_at: k.revoked_at || null }));
  }

  async registerUser(email: string, password: string, creditMicros: number, tier: AccountTier = 'paid'): Promise<UserView> {
    const u = await this.call<User__Output>('RegisterUser', { email, password, credit_micros: String(creditMicros), tier });
    return { id: u.id, email: u.email, account_id: u.account_id };
  }

  async verifyUser(email: string, password: string): Promise<UserView | null> {
    const reply = await this.call<VerifyUserReply__Output>('VerifyUser', { email, password });
    return reply.found && reply.user ? { id: reply.user.id, email: reply.user.email, account_id: reply.user.account_id } : null;
  }
}
