/**
 * The internal service interfaces. The edge talks to these; distributed mode implements them with
 * gRPC clients, standalone with the domain services themselves. Nothing here knows a transport.
 */
import type { AccountView, CreateKey, LedgerEntryView } from './admin';
import type {
  AnthropicCountTokensRequest,
  AnthropicCountTokensResponse,
  AnthropicMessage,
  AnthropicMessagesRequest,
  AnthropicStreamEvent,
} from './anthropic';
import type { ModelInfo, ModelRoute } from './catalog';
import type { ChatCompletionChunk, ChatCompletionRequest, ChatCompletionResponse } from './chat';

/** Who is calling: resolved from an API key. */
export interface KeyPrincipal {
  key_id: string;
  account_id: string;
  /** Empty = every model. */
  models: string[];
  rate_limit_rpm: number | null;
  max_concurrency: number | null;
}

export interface CatalogPort {
  /** Throws GatewayError model_not_found. */
  resolve(model: string): Promise<ModelRoute>;
  list(): Promise<ModelInfo[]>;
}

export interface HoldRequest {
  request_id: string;
  account_id: string;
  key_id: string;
  amount_micros: number;
}

export interface BillingPort {
  /** key hash (sha256 hex) → principal, or null when unknown/revoked. */
  authenticate(keyHash: string): Promise<KeyPrincipal | null>;
  /** Reserve the worst case; throws GatewayError 402 when the available balance is short. */
  placeHold(req: HoldRequest): Promise<{ hold_id: string }>;
  /** Give a hold back untouched (the call failed before producing anything billable). */
  releaseHold(holdId: string): Promise<void>;

  createAccount(name: string, creditMicros: number): Promise<AccountView>;
  getAccount(accountId: string): Promise<AccountView>;
  credit(accountId: string, amountMicros: number, reference?: string): Promise<{ balance_usd: number }>;
  createKey(accountId: string, spec: CreateKey): Promise<{ id: string; key: string }>;
  revokeKey(keyId: string): Promise<void>;
  listUsage(accountId: string): Promise<LedgerEntryView[]>;
  /** Balance, all-time usage and per-day usage in [from, to) (ISO dates), for the dashboard endpoints. */
  quota(accountId: string, range?: DateRange): Promise<QuotaView>;
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

/** Everything chat needs to serve one call; the edge has already authenticated, validated and held. */
export interface ChatCall {
  request_id: string;
  account_id: string;
  key_id: string;
  hold_id: string | null;
  route: ModelRoute;
  body: ChatCompletionRequest;
  /** W3C traceparent, so the trace continues across the transport. */
  traceparent?: string;
}

export interface ChatPort {
  complete(call: ChatCall): Promise<ChatCompletionResponse>;
  /** Chunks as they come; `signal` aborts the upstream call when the client goes away. */
  stream(call: ChatCall, signal: AbortSignal): AsyncIterable<ChatCompletionChunk>;
}

/** A native messages-format call (POST /v1/messages): the same envelope, an Anthropic-format body. */
export interface MessagesCall extends Omit<ChatCall, 'body'> {
  body: AnthropicMessagesRequest;
  /** `anthropic-beta` header values the client sent, passed to messages-native upstreams. */
  betas?: string[];
}

export interface CountTokensCall {
  request_id: string;
  route: ModelRoute;
  body: AnthropicCountTokensRequest;
  betas?: string[];
}

export interface MessagesPort {
  create(call: MessagesCall): Promise<AnthropicMessage>;
  /** Events in Anthropic's exact order (pings included); `signal` aborts the upstream call. */
  stream(call: MessagesCall, signal: AbortSignal): AsyncIterable<AnthropicStreamEvent>;
  countTokens(call: CountTokensCall): Promise<AnthropicCountTokensResponse>;
}
