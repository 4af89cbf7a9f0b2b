/** Admin API bodies (DESIGN.md §6). */
import { z } from 'zod';
import type { Usage } from './pricing';
import { hasBidiControls, textCanHold } from './stored-text';

/** Largest amount one credit or opening balance may carry (far above any real top-up). */
export const MAX_CREDIT_USD = 1_000_000_000;
/**
 * Largest balance an account may hold: money is integer micro-USD carried as a JS number, exact only
 * up to 2^53 (~9,007,199,254 USD). A credit that would take the balance past it is refused.
 */
export const MAX_BALANCE_USD = 9_000_000_000;
export const MAX_BALANCE_MICROS = MAX_BALANCE_USD * 1_000_000;
/** Postgres `integer`: limits above it would fail in the database instead of here. */
const INT32_MAX = 2_147_483_647;

/** Whether `v` USD is a whole number of micro-dollars (the ledger's unit), within float noise. */
const wholeMicros = (v: number) => Math.abs(v * 1e6 - Math.round(v * 1e6)) < 1e-3;

const usd = (field: string, opts: { positive: boolean; coerce?: boolean }) =>
  (opts.coerce ? z.coerce : z)
    .number({ error: `${field} must be a number of USD` })
    .finite(`${field} must be a finite number of USD`)
    .min(0, `${field} must not be negative`)
    .max(MAX_CREDIT_USD, `${field} must be at most ${MAX_CREDIT_USD} USD`)
    .refine(wholeMicros, `${field} must be a whole number of micro-dollars (at most 6 decimals)`)
    .refine((v) => !opts.positive || Math.round(v * 1e6) >= 1, `${field} must be at least 0.000001`);

/** `UNIGATE_BOOTSTRAP_CREDIT_USD`: the bootstrap account's opening credit, bounded as an admin-created account's. */
export const bootstrapCreditUsdEnv = usd('UNIGATE_BOOTSTRAP_CREDIT_USD', { positive: false, coerce: true }).default(100);

/** Names and references: stored as text, which cannot hold NUL. */
const text = (field: string, min = 1) =>
  z
    .string({ error: `${field} must be a string` })
    .min(min, `${field} must not be empty`)
    .max(200, `${field} must be at most 200 characters`)
    .refine(textCanHold, `${field} must not contain NUL characters`)
    .refine((s) => !hasBidiControls(s), `${field} must not contain bidirectional control characters (U+202A-U+202E, U+2066-U+2069)`);

// The bound first: 1e20 is past it (zod's int() also refuses it, as past 2^53, in other words).
const limit = (field: string) =>
  z
    .number({ error: `${field} must be a positive integer` })
    .max(INT32_MAX, `${field} must be at most ${INT32_MAX}`)
    .int(`${field} must be a positive integer`)
    .positive(`${field} must be a positive integer`);

/**
 * An account's tier: what an upstream keeps for it follows the tier (SPEC.md §8: gamma stored
 * history 55 days paid, 1 day free). Accounts are `paid` unless the operator says otherwise.
 */
export const ACCOUNT_TIERS = ['paid', 'free'] as const;
export type AccountTier = (typeof ACCOUNT_TIERS)[number];
export const accountTierSchema = z.enum(ACCOUNT_TIERS, { error: `tier must be one of: ${ACCOUNT_TIERS.join(', ')}` });
/** A tier read off the internal wire (proto3 strings): anything but `free` (a peer that sends none) is paid. */
export const tierFromWire = (tier: string): AccountTier => (tier === 'free' ? 'free' : 'paid');

// Strict, as every admin body: a misspelt field (`credit` for `credit_usd`, `ref` for `reference`,
// `rpm` for `rate_limit_rpm`) would otherwise be dropped, leaving an account unfunded, a top-up
// credited twice or a key without its limit.
export const createAccountSchema = z.strictObject({
  name: text('name'),
  credit_usd: usd('credit_usd', { positive: false }).optional(),
  tier: accountTierSchema.optional(),
});
/** PATCH /admin/v1/accounts/{id}: what an operator may change about an account. */
export const updateAccountSchema = z.strictObject({ tier: accountTierSchema }, { error: 'body must be {"tier": "paid" | "free"}' });
export const creditAccountSchema = z.strictObject({
  amount_usd: usd('amount_usd', { positive: true }),
  reference: text('reference').optional(),
});
/** A key's settings, one definition each: create and update (PATCH /admin/v1/keys/{id}) validate alike. */
// An empty name is no name: over gRPC (proto3 has no null) it could only arrive as null, so both stores hold null.
const keyName = text('name', 0).transform((name) => name || null);
const keyModels = z
  .array(text('model'), { error: 'models must be an array of model ids' })
  // An empty list would read as "no model" but the principal treats it as "every model": say so.
  .min(1, 'models lists no model; leave it out to allow every model')
  .max(1_000, 'models must list at most 1000 models');
const keyRateLimitRpm = limit('rate_limit_rpm');
const keyMaxConcurrency = limit('max_concurrency');

export const createKeySchema = z.strictObject({
  // Nullable: what this schema gives (an empty name as null) must pass it again (billing checks what the edge checked).
  name: keyName.nullable().optional(),
  models: keyModels.optional(),
  rate_limit_rpm: keyRateLimitRpm.optional(),
  max_concurrency: keyMaxConcurrency.optional(),
});
/**
 * PATCH /admin/v1/keys/{id}: the settings to change, at least one; absent = unchanged, null = cleared
 * (no name, every model, no limit). Strict: a misspelt field must not read as "nothing to change".
 */
export const updateKeySchema = z
  .strictObject({
    name: keyName.nullable().optional(),
    models: keyModels.nullable().optional(),
    rate_limit_rpm: keyRateLimitRpm.nullable().optional(),
    max_concurrency: keyMaxConcurrency.nullable().optional(),
  })
  .refine((v) => Object.values(v).some((field) => field !== undefined), {
    error: 'body must change at least one of name, models, rate_limit_rpm, max_concurrency',
  });
export type CreateAccount = z.infer<typeof createAccountSchema>;
export type CreditAccount = z.infer<typeof creditAccountSchema>;
export type CreateKey = z.infer<typeof createKeySchema>;
export type UpdateKey = z.infer<typeof updateKeySchema>;
export type UpdateAccount = z.infer<typeof updateAccountSchema>;

export interface AccountView {
  id: string;
  name: string;
  balance_usd: number;
  reserved_usd: number;
}

/** An API key's settings as the admin API answers them (PATCH /admin/v1/keys/{id}); never the secret. */
export interface KeySettingsView {
  id: string;
  account_id: string;
  name: string | null;
  /** The key's first characters, enough to recognise it. */
  prefix: string;
  /** null: every model. */
  models: string[] | null;
  rate_limit_rpm: number | null;
  max_concurrency: number | null;
  created_at: string;
}

/** PATCH /admin/v1/accounts/{id}'s answer (AccountView keeps DESIGN.md §6's shape). */
export interface AccountTierView {
  id: string;
  tier: AccountTier;
}

/**
 * Active keys one account may hold. Sign-up makes accounts for anyone, and each key is a row and a
 * line on the dashboard: the bound keeps one user from making them without end. An operator's
 * per-service keys fit many times over.
 */
export const MAX_ACTIVE_KEYS = 1000;
/** Revoked keys an account's key list shows (the newest revoked), after every active one. */
export const REVOKED_KEYS_LISTED = 50;

/** The most ledger entries one usage page holds (and the page when no `limit` is given). */
export const USAGE_PAGE_LIMIT = 1000;

/**
 * `GET /admin/v1/accounts/{id}/usage`'s query: newest first, `limit` entries at most, those older than
 * the entry `after` names (the last id of the page before). Strict: a `before` or `cursor` that paged
 * nothing would hand back the first page as if it were the next.
 */
export const usagePageQuerySchema = z.strictObject({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(USAGE_PAGE_LIMIT)
    .default(USAGE_PAGE_LIMIT)
    .describe(`entries per page (1-${USAGE_PAGE_LIMIT})`),
  after: z.guid({ error: 'after must be a ledger entry id: the last id of the page before' }).optional(),
});
/** What a caller asks for; absent fields take the schema's defaults. */
export type UsagePageQuery = Partial<z.infer<typeof usagePageQuerySchema>>;

/** One page of an account's ledger, newest first; `has_more` when older entries follow the last. */
export interface UsagePage {
  entries: LedgerEntryView[];
  has_more: boolean;
}

export interface LedgerEntryView {
  id: string;
  request_id: string;
  model: string;
  kind: string;
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  /** Everything measured, in the model's price units (tokens, images, seconds, characters). */
  units: Usage;
  cost_usd: number;
  cost_micros: number;
  created_at: string;
}
