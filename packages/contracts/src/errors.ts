/**
 * Typed gateway errors. Every failure that reaches a client is one of these values; one renderer per
 * transport turns it into the body shape SPEC.md §7 / DESIGN.md §5 prescribe for the endpoint.
 */
export type ErrorShape = 'A' | 'B' | 'anthropic';

export interface GatewayErrorInit {
  status: number;
  code: string;
  message: string;
  /** OpenAI-style `type` (Shape B). Defaults from the status. */
  type?: string;
  param?: string | null;
  /** Safe to retry against another upstream channel (only before the first byte reached the client). */
  retryable?: boolean;
  /** Seconds, rendered as a Retry-After header. */
  retryAfter?: number;
  /** The upstream's own HTTP status, when this error is an upstream's answer (429 is rendered 503). */
  upstreamStatus?: number;
}

const DEFAULT_TYPE: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  402: 'insufficient_quota',
  403: 'permission_error',
  404: 'invalid_request_error',
  413: 'invalid_request_error',
  429: 'rate_limit_error',
};

export class GatewayError extends Error {
  readonly status: number;
  readonly code: string;
  readonly type: string;
  readonly param: string | null;
  readonly retryable: boolean;
  readonly retryAfter?: number;
  readonly upstreamStatus?: number;

  constructor(init: GatewayErrorInit) {
    super(init.message);
    this.name = 'GatewayError';
    this.status = init.status;
    this.code = init.code;
    this.type = init.type ?? DEFAULT_TYPE[init.status] ?? (init.status >= 500 ? 'upstream_error' : 'invalid_request_error');
    this.param = init.param ?? null;
    this.retryable = init.retryable ?? false;
    this.retryAfter = init.retryAfter;
    this.upstreamStatus = init.upstreamStatus;
  }

  toJSON(): GatewayErrorInit {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      type: this.type,
      param: this.param,
      retryable: this.retryable,
      retryAfter: this.retryAfter,
      upstreamStatus: this.upstreamStatus,
    };
  }

  static fromJSON(v: GatewayErrorInit): GatewayError {
    return new GatewayError(v);
  }

  static is(e: unknown): e is GatewayError {
    return e instanceof GatewayError;
  }
}

export const errors = {
  invalidRequest: (message: string, param: string | null = null, code = 'invalid_value') =>
    new GatewayError({ status: 400, code, message, param }),
  invalidJson: (detail: string) =>
    new GatewayError({
      status: 400,
      code: 'invalid_json',
      message: `We could not parse the JSON body of your request: ${detail}`,
    }),
  invalidApiKey: (message = 'Incorrect or missing API key. Pass it as Authorization: Bearer sk-...') =>
    new GatewayError({ status: 401, code: 'invalid_api_key', type: 'invalid_request_error', message }),
  insufficientBalance: (neededMicros: number, availableMicros: number) =>
    new GatewayError({
      status: 402,
      code: 'insufficient_balance',
      message: `Insufficient balance: this request may cost up to $${formatUsd(neededMicros)} but only $${formatUsd(
        Math.max(availableMicros, 0),
      )} is available. Top up the account to continue.`,
    }),
  modelNotFound: (model: string) =>
    new GatewayError({
      status: 404,
      code: 'model_not_found',
      message: `The model '${model}' does not exist or is not served by this gateway.`,
      param: 'model',
    }),
  modelForbidden: (model: string) =>
    new GatewayError({
      status: 403,
      code: 'model_not_allowed',
      message: `This API key may not use the model '${model}'.`,
      param: 'model',
    }),
  rateLimited: (message: string, retryAfter: number) =>
    new GatewayError({ status: 429, code: 'Throttling.RateQuota', message, retryAfter }),
  payloadTooLarge: (limitBytes: number) =>
    new GatewayError({ status: 413, code: 'request_too_large', message: `Request body exceeds ${limitBytes} bytes.` }),
  notFound: (what: string, param: string | null = null) =>
    new GatewayError({ status: 404, code: 'not_found', message: `${what} not found.`, param }),
  conflict: (message: string, param: string | null = null) => new GatewayError({ status: 409, code: 'conflict', message, param }),
  unauthorizedAdmin: () => new GatewayError({ status: 401, code: 'invalid_admin_token', message: 'Missing or wrong admin token.' }),
  /**
   * An upstream failed. A 429 is the upstream limiting the gateway, not the client's own limit (which
   * alone is a 429 Shape A): it is rendered 503, a temporary unavailability, with the upstream's wait.
   */
  upstream: (status: number, message: string, retryable: boolean, answer?: { upstreamStatus: number; retryAfter?: number }) =>
    new GatewayError({
      status: status === 504 ? 504 : status === 503 || status === 429 ? 503 : 502,
      code: 'upstream_error',
      type: 'upstream_error',
      message,
      retryable,
      ...answer,
    }),
  /**
   * The client closed the connection before its answer was ready: nobody reads this, but the access
   * log and the request metrics show 499 (nginx's convention) instead of a 500 for a routine event.
   */
  clientClosed: () =>
    new GatewayError({
      status: 499,
      code: 'client_closed_request',
      type: 'invalid_request_error',
      message: 'The client closed the connection before the answer was ready.',
    }),
  /** Something of the gateway's own (a service, the storage) cannot serve now: a 503 to retry. */
  unavailable: (message: string, retryAfter?: number) =>
    new GatewayError({ status: 503, code: 'service_unavailable', type: 'server_error', message, retryable: true, retryAfter }),
  internal: (errorId: string) =>
    new GatewayError({
      status: 500,
      code: 'internal_error',
      type: 'server_error',
      message: `Internal error ${errorId}. This is a bug; please report the error id.`,
    }),
};

/** Micro-USD (integer) → "1.234567" style string, exact. */
export function formatUsd(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(micros));
  const whole = Math.floor(abs / 1_000_000);
  const frac = String(abs % 1_000_000).padStart(6, '0');
  return `${sign}${whole}.${frac}`;
}

/** Shape A `{code, message, request_id}` — alpha image and video families, and 429. */
export function renderShapeA(err: GatewayError, requestId: string) {
  return { code: err.code, message: err.message, request_id: requestId };
}

/** Shape B `{error:{message,type,code,param}}`; 402 carries the message only (SPEC.md §7). */
export function renderShapeB(err: GatewayError) {
  if (err.status === 402) return { error: { message: err.message } };
  return { error: { message: err.message, type: err.type, code: err.code, param: err.param } };
}

const ANTHROPIC_TYPE: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

/** Anthropic's error body, for /v1/messages whose clients parse it. */
export function renderAnthropic(err: GatewayError, requestId: string) {
  return {
    type: 'error',
    // Anthropic names no other client error: those are invalid requests (415, 414, 408…), not its 5xx api_error.
    error: { type: ANTHROPIC_TYPE[err.status] ?? (err.status < 500 ? 'invalid_request_error' : 'api_error'), message: err.message },
    request_id: requestId,
  };
}

export function renderError(err: GatewayError, shape: ErrorShape, requestId: string): unknown {
  // 429 is Shape A on every endpoint and 402 Shape B with the message only (SPEC.md §7), the
  // Shape A families' included. Anthropic clients parse their own shape, and the two share no field
  // but request_id, so a 429 on the messages endpoints carries both.
  if (err.status === 402 && shape === 'A') return renderShapeB(err);
  if (shape === 'A' || (err.status === 429 && shape === 'B')) return renderShapeA(err, requestId);
  if (shape === 'anthropic') {
    const body = renderAnthropic(err, requestId);
    return err.status === 429 ? { ...renderShapeA(err, requestId), ...body } : body;
  }
  return renderShapeB(err);
}
