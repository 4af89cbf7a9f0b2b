/**
 * Upstream HTTP errors as GatewayErrors. 429 and 5xx are the upstream's trouble: retryable on another
 * channel, rendered 502/503/504 when every channel failed. 401/403 mean the gateway's own channel
 * credentials are wrong — the client's request is fine and must not see the vendor's key hint — so
 * they become a retryable 502 too. Any other 4xx is about the request itself: same status, the
 * upstream's message (400 stays 400 invalid_request_error).
 */
import { errors, GatewayError } from '@unigate/contracts';
import { bareErrorBodySchema, openAiErrorBodySchema, shapeAErrorBodySchema } from './openai-chat-schemas';

const MAX_MESSAGE = 1000;

export function openAiChatHttpError(status: number, bodyText: string): GatewayError {
  const detail = errorDetail(bodyText);
  const message = detail.message ?? (bodyText.trim().slice(0, MAX_MESSAGE) || `upstream answered HTTP ${status}`);
  if (status === 429 || status >= 500) return errors.upstream(status, message, true);
  if (status === 401 || status === 403) {
    return errors.upstream(502, `upstream rejected the gateway's credentials for this channel (HTTP ${status})`, true);
  }
  return new GatewayError({
    status,
    code: detail.code ?? 'upstream_rejected',
    message,
    param: detail.param ?? null,
  });
}

/** An error event or `{error}` payload inside a stream. */
export function openAiChatStreamError(data: string, retryable: boolean): GatewayError {
  const detail = errorDetail(data);
  return errors.upstream(502, detail.message ?? `upstream stream failed: ${data.slice(0, MAX_MESSAGE)}`, retryable);
}

function errorDetail(text: string): { message?: string; code?: string; param?: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {};
  }
  const openAi = openAiErrorBodySchema.safeParse(json);
  if (openAi.success) {
    const e = openAi.data.error;
    return { message: e.message, code: str(e.code), param: e.param ?? undefined };
  }
  const bare = bareErrorBodySchema.safeParse(json);
  if (bare.success) return { message: bare.data.error };
  const shapeA = shapeAErrorBodySchema.safeParse(json);
  if (shapeA.success) return { message: shapeA.data.message, code: str(shapeA.data.code) };
  return {};
}

function str(v: string | number | null | undefined): string | undefined {
  return v === null || v === undefined ? undefined : String(v);
}
