import type { AccountView, BillingPort, CreateKey, DateRange, HoldRequest, KeyPrincipal, LedgerEntryView, QuotaView } from '@unigate/contracts';
import type { Account__Output, AuthenticateReply__Output, CreatedKey__Output, CreditReply__Output, Quota__Output, UsageList__Output } from '@unigate/proto';
import { grpcStub, unary, type GrpcStub } from './grpc-client';

/** Billing over gRPC. Money crosses as int64 strings (micro-USD), never floats. */
export class GrpcBillingClient implements BillingPort {
  private readonly stub: GrpcStub;

  constructor(url: string) {
    this.stub = grpcStub('billing', url);
  }

  async authenticate(keyHash: string): Promise<KeyPrincipal | null> {
    const reply = await unary<AuthenticateReply__Output>(this.stub, 'Authenticate', { key_hash: keyHash });
    if (!reply.found || !reply.principal) return null;
    const p = reply.principal;
    return {
      key_id: p.key_id,
      account_id: p.account_id,
      models: p.models,
      rate_limit_rpm: p.rate_limit_rpm || null,
      max_concurrency: p.max_concurrency || null,
    };
  }

  async placeHold(req: HoldRequest): Promise<{ hold_id: string }> {
    return unary(this.stub, 'PlaceHold', { ...req, amount_micros: String(req.amount_micros) });
  }

  async releaseHold(holdId: string): Promise<void> {
    await unary(this.stub, 'ReleaseHold', { hold_id: holdId });
  }

  createAccount(name: string, creditMicros: number): Promise<AccountView> {
    return unary<Account__Output>(this.stub, 'CreateAccount', { name, credit_micros: String(creditMicros) });
  }

  getAccount(accountId: string): Promise<AccountView> {
    return unary<Account__Output>(this.stub, 'GetAccount', { account_id: accountId });
  }

  credit(accountId: string, amountMicros: number, reference?: string): Promise<{ balance_usd: number }> {
    return unary<CreditReply__Output>(this.stub, 'Credit', { account_id: accountId, amount_micros: String(amountMicros), reference: reference ?? '' });
  }

  createKey(accountId: string, spec: CreateKey): Promise<{ id: string; key: string }> {
    return unary<CreatedKey__Output>(this.stub, 'CreateKey', { account_id: accountId, spec_json: JSON.stringify(spec) });
  }

  async revokeKey(keyId: string): Promise<void> {
    await unary(this.stub, 'RevokeKey', { key_id: keyId });
  }

  async listUsage(accountId: string): Promise<LedgerEntryView[]> {
    const reply = await unary<UsageList__Output>(this.stub, 'ListUsage', { account_id: accountId });
    return JSON.parse(reply.json) as LedgerEntryView[];
  }

  async quota(accountId: string, range?: DateRange): Promise<QuotaView> {
    const q = await unary<Quota__Output>(this.stub, 'GetQuota', { account_id: accountId, from: range?.from ?? '', to: range?.to ?? '' });
    return {
      balance_micros: Number(q.balance_micros),
      used_micros: Number(q.used_micros),
      reserved_micros: Number(q.reserved_micros),
      daily: JSON.parse(q.daily_json || '[]') as QuotaView['daily'],
    };
  }
}
