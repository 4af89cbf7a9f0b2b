/**
 * The internal service interfaces. The edge talks to these; distributed mode implements them with
 * gRPC clients, standalone with the domain services themselves. Nothing here knows a transport.
 */
import type { AccountTier, AccountTierView, AccountView, CreateKey, KeySettingsView, UpdateKey, UsagePage, UsagePageQuery } from './admin';
import type { ModelInfo, ModelRoute } from './catalog';
import type { Usage } from './pricing';

/** Who is calling: resolved from an API key. */
export interface KeyPrincipal {
  key_id: string;
  account_id: string;
  /** Empty = every model. */
  models: string[];
  rate_limit_rpm: number | null;
  max_concurrency: number | null;
  /** The account's tier (what an upstream keeps for it follows it). */
  tier: AccountTier;
}

export interface CatalogPort {
  /** Throws GatewayError model_not_found. */
  resolve(model: string): Promise<ModelRoute>;
  list(): Promise<ModelInfo[]>;
}

/** An account's settled money as the ledger holds it; `version` grows with every change to it. */
export interface AccountMoney {
  balance_micros: number;
  version: number;
}

export interface BillingPort {
  /** key hash (sha256 hex) → principal, or null when unknown/revoked. */
  authenticate(keyHash: string): Promise<KeyPrincipal | null>;
  /**
   * Give a hold back untouched: a call that failed after it was answered (a video task). Holds are
   * placed by the edge's reservations (limits and hold in one step), not through this port.
   */
  releaseHold(accountId: string, holdId: string): Promise<void>;
  /** The ledger's money of an account (null when unknown), for a reservation store to load. */
  accountMoney(accountId: string): Promise<AccountMoney | null>;

  createAccount(name: string, creditMicros: number, tier?: AccountTier): Promise<AccountView>;
  getAccount(accountId: string): Promise<AccountView>;
  /** Changes the account's tier; keys already cached by an edge follow within the key cache's TTL. */
  setTier(accountId: string, tier: AccountTier): Promise<AccountTierView>;
  credit(accountId: string, amountMicros: number, reference?: string): Promise<{ balance_usd: number }>;
  createKey(accountId: string, spec: CreateKey): Promise<{ id: string; key: string }>;
  /** Marks the key revoked; every edge drops its cached principal (key-stale event). Throws not_found. */
  revokeKey(keyId: string): Promise<void>;
  /**
   * Changes an active key's settings (absent: unchanged, null: cleared); every edge drops its cached
   * principal as on revocation (key-stale event). Throws not_found for unknown and revoked keys alike.
   */
  updateKey(keyId: string, changes: UpdateKey): Promise<KeySettingsView>;
  /** One page of the account's ledger entries, newest first (the newest `USAGE_PAGE_LIMIT` without a query). Throws not_found. */
  listUsage(accountId: string, page?: UsagePageQuery): Promise<UsagePage>;
  /** Balance, all-time usage and per-day usage in [from, to) (ISO dates), for the dashboard endpoints. */
  quota(accountId: string, range?: DateRange): Promise<QuotaView>;
  /**
   * Requests, tokens and cost per UTC day (of the entry's `created_at`) and model in [from, to),
   * newest day first, then by model: every entry of the range, however many (the dashboard's table).
   */
  usageSummary(accountId: string, range: DateRange): Promise<DailyModelUsage[]>;
  /** The account's active keys and its REVOKED_KEYS_LISTED newest revoked ones, newest first (no secrets), for the dashboard. */
  listKeys(accountId: string): Promise<KeyView[]>;
  /**
   * A dashboard user with a new account holding `creditMicros`; the password is stored as an argon2id
   * hash. Throws GatewayError conflict when the email (case-insensitive) is taken.
   */
  registerUser(email: string, password: string, creditMicros: number, tier?: AccountTier): Promise<UserView>;
  /** The user when email and password match, else null (unknown email and wrong password alike). */
  verifyUser(email: string, password: string): Promise<UserView | null>;
}

export interface KeyView {
  id: string;
  name: string | null;
  /** The key's first characters, enough to recognise it. */
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

export interface UserView {
  id: string;
  email: string;
  account_id: string;
}

export interface DateRange {
  /** Inclusive, YYYY-MM-DD (UTC). */
  from: string;
  /** Exclusive, YYYY-MM-DD (UTC). */
  to: string;
}

export interface QuotaView {
  /** Settled money left (micro-USD); in-flight holds are not subtracted. */
  balance_micros: number;
  /** Everything ever charged (micro-USD). balance + used = total quota granted. */
  used_micros: number;
  reserved_micros: number;
  daily: Array<{ date: string; charged_micros: number }>;
}

/** One row of BillingPort.usageSummary: an account's ledger entries of one UTC day and model. */
export interface DailyModelUsage {
  /** YYYY-MM-DD (UTC). */
  date: string;
  model: string;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cost_micros: number;
}

/** A file uploaded with a multipart request (image edits), carried to the service as bytes. */
export interface Attachment {
  /** The form field (`image`, `image[]`, `mask`). */
  field: string;
  filename: string;
  content_type: string;
  data: Uint8Array;
}

/**
 * One call of an endpoint (packages/contracts/src/endpoints), as the edge hands it to the service
 * that owns the endpoint: authenticated, validated, routed and held. The same envelope for every
 * endpoint; `body` is the endpoint's validated request.
 */
export interface EndpointCall {
  /** The endpoint spec's name, e.g. `chat.completions`. */
  endpoint: string;
  request_id: string;
  account_id: string;
  key_id: string;
  /** The calling account's tier; absent means `paid`. */
  tier?: AccountTier;
  hold_id: string | null;
  route: ModelRoute;
  body: unknown;
  /** Endpoint options taken from request headers (e.g. `anthropic-beta`). */
  options: Record<string, string>;
  files?: Attachment[];
  /** W3C traceparent, so the trace continues across the transport. */
  traceparent?: string;
}

/**
 * An answer or stream item that is already the JSON text the client gets (with its SSE event name,
 * for endpoints that name events): a service over gRPC sent it as text, and the edge writes it as it
 * came instead of parsing, checking and serializing it again — which is what standalone does with
 * the object its in-process service returns, so both deployments answer the same bytes.
 */
export class JsonText {
  constructor(
    readonly text: string,
    readonly event?: string,
  ) {}
}

/**
 * A capability service (chat, media, video) as the edge sees it: in-process in standalone, over gRPC
 * in distributed mode. Replies and stream items are the endpoint's response and event types, or that
 * value's JsonText.
 */
export interface EndpointPort {
  /**
   * Set on a port to a service in another process: the call may be handed over while the edge's
   * admission (limits and the hold, a Redis round trip) is still in flight, as `admission`. The port
   * lets the service prepare the call meanwhile but run nothing of it before `admission` resolves;
   * when it rejects, the call fails with its error, unrun. Other ports are called once admitted.
   */
  readonly overlapsAdmission?: boolean;
  /**
   * Set on a port in the service itself that takes `admission` as the edge's port passes it on: it
   * prepares the call (translates it, builds the upstream request) and sends nothing upstream before
   * `admission` resolves. The service's transport hands a held call straight to such a port; any
   * other port is called once the call is released.
   */
  readonly preparesWhileHeld?: boolean;
  /** `signal` aborts the upstream call when the client goes away. */
  call(call: EndpointCall, signal?: AbortSignal, meter?: CallMeter, admission?: Promise<void>): Promise<unknown>;
  /**
   * Items as they come; `signal` aborts the upstream call when the client goes away. `meter` holds
   * the upstream wait up to the first item by the time that item is yielded, and the cost once the
   * items end.
   */
  stream(call: EndpointCall, signal: AbortSignal, meter?: CallMeter, admission?: Promise<void>): AsyncIterable<unknown>;
}

/** What the service measured of a call, filled in as it runs; the edge reads it when the call ends. */
export interface CallMeter {
  /**
   * Milliseconds spent waiting on upstreams (every attempt: to the whole answer, or to a stream's
   * first event). The edge subtracts it from the time the request took to report the gateway's own
   * overhead (`x-unigate-overhead-ms`).
   */
  upstream_ms: number;
  /**
   * What the call costs, as its usage event charges it; set once that usage is recorded, absent
   * when none was (a call that failed before producing anything, a video task, billed when it
   * finishes). The edge shrinks the call's hold to it, so the account's next call is not refused
   * for money a finished call no longer needs while billing settles it (docs/billing.md).
   */
  cost_micros?: number;
}

/**
 * How one upstream attempt of a call ended (the runner's failover tells its observer): `cancelled`
 * when the caller left (the call's signal aborted), `invalid_request` when the channel's adapter
 * refused the request before sending it (a 4xx of the gateway's own, such as a tool call's arguments
 * that its protocol cannot carry), and `rejected` when the upstream answered a 4xx about the request
 * itself (its status and message go to the client): none says the upstream or the channel failed.
 */
export type AttemptOutcome = 'ok' | 'retryable_error' | 'error' | 'invalid_request' | 'rejected' | 'cancelled';

/** Where a service reports what a call produced; billing settles the hold from it. */
export interface UsageSink {
  /** Resolves the cost the call is charged (its usage event's cost_micros). */
  record(call: Omit<EndpointCall, 'body' | 'files'>, usage: Usage): Promise<number>;
}

/** The video service's task lookup (GET /v1/videos/generations/{id}): the account's task by either id kind, else a 404. */
export interface VideoTaskPort {
  lookup(accountId: string, id: string): Promise<import('./endpoints/videos/video-task').VideoTask>;
  /** The account's newest tasks, newest first: at most `limit`, never more than MAX_RECENT_VIDEO_TASKS (the dashboard). */
  recent(accountId: string, limit: number): Promise<Array<import('./endpoints/videos/video-task').VideoTask>>;
  /** The account's webhook signing secret (`whsec_…`), for the admin API and the dashboard. */
  webhookSecret(accountId: string): Promise<string>;
}

/**
 * Stored Responses read back and deleted by id (GET and DELETE /v1/responses/{id}), the chat
 * service's: the response as it was answered, in the caller's account. An unknown id, another
 * account's, one created with `store: false`, or one that expired is a 404.
 */
export interface StoredResponsePort {
  retrieve(accountId: string, id: string): Promise<import('./responses/response').ResponsesResponse>;
  /** Deletes it; the turns that continued it can no longer be continued (their chain is cut). */
  remove(accountId: string, id: string): Promise<void>;
  /** A page of the items it was answered from (its conversation up to its own output). */
  inputItems(
    accountId: string,
    id: string,
    query: import('./responses/input-items').InputItemsQuery,
  ): Promise<import('./responses/input-items').InputItemList>;
}

/** Where results that outlive a request (alpha images, finished videos) are kept. */
export interface ResultStore {
  /** Keeps the bytes and answers a link to them (gateway-relative, signed, time-limited). */
  keep(data: Uint8Array, contentType: string): Promise<string>;
}
