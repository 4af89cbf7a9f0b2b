/**
 * BillingService over gRPC (packages/proto/proto/billing.proto). Translation only: proto messages in,
 * BillingPort calls, proto messages out; every failure leaves as its gRPC status so the client gets
 * back the same GatewayError. int64 fields travel as decimal strings (LOADER_OPTIONS longs: String),
 * converted here with an exactness check.
 */
import { createKeySchema, errors, parseOrThrow, type AccountTier, type BillingPort } from '@unigate/contracts';
import { encodeJson } from '@unigate/platform';
import { unaryHandler } from '@unigate/platform/distributed';
import type { BillingServiceHandlers } from '@unigate/proto';

export function billingGrpcHandlers(billing: BillingPort): BillingServiceHandlers {
  return {
    Authenticate: unaryHandler(async (req) => {
      const p = await billing.authenticate(req.key_hash);
      if (!p) return { found: false };
      // proto3 has no null: 0 means unlimited.
      return {
        found: true,
        principal: {
          key_id: p.key_id,
          account_id: p.account_id,
          models: p.models,
          rate_limit_rpm: p.rate_limit_rpm ?? 0,
          max_concurrency: p.max_concurrency ?? 0,
          tier: p.tier,
        },
      };
    }),
    ReleaseHold: unaryHandler(async (req) => {
      await billing.releaseHold(req.account_id, req.hold_id);
      return {};
    }),
    GetAccountMoney: unaryHandler(async (req) => {
      const money = await billing.accountMoney(req.account_id);
      return money ? { found: true, balance_micros: String(money.balance_micros), version: String(money.version) } : { found: false };
    }),
    CreateAccount: unaryHandler((req) =>
      billing.createAccount(req.name, int64(req.credit_micros, 'credit_micros'), (req.tier || 'paid') as AccountTier),
    ),
    GetAccount: unaryHandler((req) => billing.getAccount(req.account_id)),
    // The tier is checked by the domain (requireTier), as the edge's schema did.
    SetAccountTier: unaryHandler(async (req) => {
      const set = await billing.setTier(req.account_id, req.tier as AccountTier);
      return { account_id: set.id, tier: set.tier };
    }),
    Credit: unaryHandler((req) => billing.credit(req.account_id, int64(req.amount_micros, 'amount_micros'), req.reference || undefined)),
    CreateKey: unaryHandler((req) => {
      // proto3 has no null: empty and 0 mean "not set"; the schema checks the rest as the edge did.
      const spec = parseOrThrow(createKeySchema, {
        ...(req.name && { name: req.name }),
        ...(req.models.length && { models: req.models }),
        ...(req.rate_limit_rpm && { rate_limit_rpm: req.rate_limit_rpm }),
        ...(req.max_concurrency && { max_concurrency: req.max_concurrency }),
      });
      return billing.createKey(req.account_id, spec);
    }),
    RevokeKey: unaryHandler(async (req) => {
      await billing.revokeKey(req.key_id);
      return {};
    }),
    UpdateKey: unaryHandler(async (req) => {
      // Absent fields stay; empty, an empty list and 0 clear (proto3 has no null). The domain checks the rest.
      const key = await billing.updateKey(req.key_id, {
        ...(req.name !== undefined && { name: req.name || null }),
        ...(req.models && { models: req.models.models.length ? req.models.models : null }),
        ...(req.rate_limit_rpm !== undefined && { rate_limit_rpm: req.rate_limit_rpm || null }),
        ...(req.max_concurrency !== undefined && { max_concurrency: req.max_concurrency || null }),
      });
      return {
        ...key,
        name: key.name ?? '',
        models: key.models ?? [],
        rate_limit_rpm: key.rate_limit_rpm ?? 0,
        max_concurrency: key.max_concurrency ?? 0,
      };
    }),
    ListUsage: unaryHandler(async (req) => {
      const page = await billing.listUsage(req.account_id, { limit: req.limit || undefined, after: req.after || undefined });
      return {
        has_more: page.has_more,
        entries: page.entries.map((e) => ({
          id: e.id,
          request_id: e.request_id,
          model: e.model,
          kind: e.kind,
          input_tokens: String(e.input_tokens),
          cached_input_tokens: String(e.cached_input_tokens),
          output_tokens: String(e.output_tokens),
          cost_micros: String(e.cost_micros),
          created_at: e.created_at,
          units: encodeJson(e.units),
        })),
      };
    }),
    GetQuota: unaryHandler(async (req) => {
      const q = await billing.quota(req.account_id, req.from && req.to ? { from: req.from, to: req.to } : undefined);
      return {
        balance_micros: String(q.balance_micros),
        used_micros: String(q.used_micros),
        reserved_micros: String(q.reserved_micros),
        daily: q.daily.map((d) => ({ date: d.date, charged_micros: String(d.charged_micros) })),
      };
    }),
    GetUsageSummary: unaryHandler(async (req) => ({
      rows: (await billing.usageSummary(req.account_id, { from: req.from, to: req.to })).map((r) => ({
        date: r.date,
        model: r.model,
        requests: String(r.requests),
        input_tokens: String(r.input_tokens),
        output_tokens: String(r.output_tokens),
        cost_micros: String(r.cost_micros),
      })),
    })),
    ListKeys: unaryHandler(async (req) => ({
      keys: (await billing.listKeys(req.account_id)).map((k) => ({ ...k, name: k.name ?? '', revoked_at: k.revoked_at ?? '' })),
    })),
    RegisterUser: unaryHandler((req) =>
      billing.registerUser(req.email, req.password, int64(req.credit_micros, 'credit_micros'), (req.tier || 'paid') as AccountTier),
    ),
    VerifyUser: unaryHandler(async (req) => {
      const user = await billing.verifyUser(req.email, req.password);
      return user ? { found: true, user } : { found: false };
    }),
  };
}

/** A proto int64 (string with longs: String; a number from some clients) → an exact JS integer. */
function int64(value: string | number | undefined, field: string): number {
  const n = typeof value === 'number' ? value : Number(value || '0');
  if (!Number.isSafeInteger(n)) throw errors.invalidRequest(`${field} must be an integer number of micro-USD`, field);
  return n;
}
