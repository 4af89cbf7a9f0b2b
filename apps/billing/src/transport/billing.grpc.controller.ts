/**
 * BillingService over gRPC (packages/proto/proto/billing.proto). Translation only: proto messages in,
 * BillingPort calls, proto messages out; every failure leaves as toRpcException(err) so the client
 * gets back the same GatewayError. int64 fields travel as decimal strings (LOADER_OPTIONS longs:
 * String), converted here with an exactness check.
 */
import { Controller, Inject } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { errors, type BillingPort, type CreateKey } from '@unigate/contracts';
import type {
  Account__Output,
  AuthenticateReply__Output,
  CreatedKey__Output,
  CreditReply__Output,
  Quota__Output,
  UsageList__Output,
} from '@unigate/proto';
import { toRpcException } from '@unigate/platform';

export const BILLING_PORT = Symbol('BillingPort');

const SERVICE = 'BillingService';

interface AuthenticateRequest { key_hash: string }
interface HoldRequest { request_id: string; account_id: string; key_id: string; amount_micros: string }
interface ReleaseHoldRequest { hold_id: string }
interface CreateAccountRequest { name: string; credit_micros: string }
interface AccountRef { account_id: string }
interface CreditRequest { account_id: string; amount_micros: string; reference: string }
interface CreateKeyRequest { account_id: string; spec_json: string }
interface KeyRef { key_id: string }
interface QuotaRequest { account_id: string; from: string; to: string }
type Empty = Record<string, never>;

@Controller()
export class BillingGrpcController {
  constructor(@Inject(BILLING_PORT) private readonly billing: BillingPort) {}

  @GrpcMethod(SERVICE, 'Authenticate')
  authenticate(req: AuthenticateRequest): Promise<AuthenticateReply__Output> {
    return rpc(async () => {
      const p = await this.billing.authenticate(req.key_hash);
      if (!p) return { found: false, principal: null };
      return {
        found: true,
        principal: {
          key_id: p.key_id,
          account_id: p.account_id,
          models: p.models,
          // proto3 has no null: 0 means unlimited.
          rate_limit_rpm: p.rate_limit_rpm ?? 0,
          max_concurrency: p.max_concurrency ?? 0,
        },
      };
    });
  }

  @GrpcMethod(SERVICE, 'PlaceHold')
  placeHold(req: HoldRequest): Promise<{ hold_id: string }> {
    return rpc(() =>
      this.billing.placeHold({
        request_id: req.request_id,
        account_id: req.account_id,
        key_id: req.key_id,
        amount_micros: int64(req.amount_micros, 'amount_micros'),
      }),
    );
  }

  @GrpcMethod(SERVICE, 'ReleaseHold')
  releaseHold(req: ReleaseHoldRequest): Promise<Empty> {
    return rpc(async () => {
      await this.billing.releaseHold(req.hold_id);
      return {};
    });
  }

  @GrpcMethod(SERVICE, 'CreateAccount')
  createAccount(req: CreateAccountRequest): Promise<Account__Output> {
    return rpc(() => this.billing.createAccount(req.name, int64(req.credit_micros, 'credit_micros')));
  }

  @GrpcMethod(SERVICE, 'GetAccount')
  getAccount(req: AccountRef): Promise<Account__Output> {
    return rpc(() => this.billing.getAccount(req.account_id));
  }

  @GrpcMethod(SERVICE, 'Credit')
  credit(req: CreditRequest): Promise<CreditReply__Output> {
    return rpc(() => this.billing.credit(req.account_id, int64(req.amount_micros, 'amount_micros'), req.reference || undefined));
  }

  @GrpcMethod(SERVICE, 'CreateKey')
  createKey(req: CreateKeyRequest): Promise<CreatedKey__Output> {
    return rpc(() => this.billing.createKey(req.account_id, parseSpec(req.spec_json)));
  }

  @GrpcMethod(SERVICE, 'RevokeKey')
  revokeKey(req: KeyRef): Promise<Empty> {
    return rpc(async () => {
      await this.billing.revokeKey(req.key_id);
      return {};
    });
  }

  @GrpcMethod(SERVICE, 'ListUsage')
  listUsage(req: AccountRef): Promise<UsageList__Output> {
    return rpc(async () => ({ json: JSON.stringify(await this.billing.listUsage(req.account_id)) }));
  }

  @GrpcMethod(SERVICE, 'GetQuota')
  getQuota(req: QuotaRequest): Promise<Quota__Output> {
    return rpc(async () => {
      const q = await this.billing.quota(req.account_id, req.from && req.to ? { from: req.from, to: req.to } : undefined);
      return {
        balance_micros: String(q.balance_micros),
        used_micros: String(q.used_micros),
        reserved_micros: String(q.reserved_micros),
        daily_json: JSON.stringify(q.daily),
      };
    });
  }
}

async function rpc<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toRpcException(err);
  }
}

/** A proto int64 (string with longs: String; a number from some clients) → an exact JS integer. */
function int64(value: string | number | undefined, field: string): number {
  const n = typeof value === 'number' ? value : Number(value || '0');
  if (!Number.isSafeInteger(n)) throw errors.invalidRequest(`${field} must be an integer number of micro-USD`, field);
  return n;
}

function parseSpec(json: string): CreateKey {
  if (!json) return {};
  try {
    return JSON.parse(json) as CreateKey;
  } catch (err) {
    throw errors.invalidJson(err instanceof Error ? err.message : String(err));
  }
}
