/**
 * The adapter contract every capability is served through. An adapter turns an endpoint's request
 * into one upstream call on one channel and returns the endpoint's answer — or stream — together
 * with the usage it measured, so nothing downstream re-derives usage. Failures are GatewayErrors,
 * `retryable` while another channel may still serve the call.
 */
import type { AccountTier, AnyEndpointSpec, Attachment, Channel, ModelInfo, Usage } from '@unigate/contracts';
import type { HttpClient } from './http/http-client';

export interface CallContext {
  /** Aborts the upstream call (the client went away). */
  signal: AbortSignal;
  request_id: string;
  /** The calling account (state an upstream keeps per caller, like gamma interactions, is checked against it). */
  account_id: string;
  /** The calling account's tier (what an upstream keeps for it follows it, e.g. gamma's stored history). */
  tier: AccountTier;
  /** Endpoint options from the request headers (e.g. `anthropic-beta`). */
  options: Readonly<Record<string, string>>;
  /** Files uploaded with a multipart request (image edits). */
  files: readonly Attachment[];
  /** The catalogue facts of the model the call is for (a translation picks what the model takes). */
  model: ModelInfo;
}

/** A whole answer and what it cost in the endpoint's units. */
export interface Measured<T> {
  value: T;
  usage: Usage;
}

/**
 * Items as the upstream produces them. `usage()` may be asked at any time: before the end it is
 * what was produced so far (a client that left, an upstream that broke off), after it the
 * upstream's own final count. Empty while nothing billable was produced.
 */
export interface MeasuredStream<T> extends AsyncIterable<T> {
  usage(): Usage;
}

export interface EndpointAdapter<Req, Res, Ev> {
  call(channel: Channel, req: Req, ctx: CallContext): Promise<Measured<Res>>;
  stream?(channel: Channel, req: Req, ctx: CallContext): MeasuredStream<Ev>;
}

/** The service half of an endpoint spec: which adapter serves it on a channel's protocol. */
export interface ServiceEndpoint<Req = unknown, Res = unknown, Ev = unknown> {
  spec: AnyEndpointSpec;
  /** undefined: no adapter speaks `protocol` for this endpoint (the channel cannot serve it). */
  adapter(protocol: string, http: HttpClient): EndpointAdapter<Req, Res, Ev> | undefined;
}

// Service endpoints are heterogeneous: the runner holds them with their types erased.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyServiceEndpoint = ServiceEndpoint<any, any, any>;
