/**
 * Anthropic errors (`{type:'error', error:{type, message}}`) as GatewayErrors, by the same rules as
 * the OpenAI adapter: 429, 529 (overloaded) and 5xx are the upstream's trouble, retryable on another
 * channel; 401/403 mean the channel's own key is wrong, so the client sees a retryable 502 without the
 * vendor's wording; any other 4xx is about the request and keeps its status and message.
 */
import { anthropicErrorBodySchema, errors, GatewayError } from '@unigate/contracts';

const MAX_MESSAGE = 1000;

export function anthropicHttpError(status: number, bodyText: string): GatewayError {
  const detail = errorDetail(bodyText);
  const message = detail?.message ?? (bodyText.trim().slice(0, MAX_MESSAGE) || `upstream answered HTTP ${status}`);
  if (status === 529) return errors.upstream(503, message, true);
  if (status === 429 || status >= 500) return errors.upstream(status, message, true);
  if (status === 401 || status === 403) {
    return errors.upstream(502, `upstream rejected the gateway's credentials for this channel (HTTP ${status})`, true);
  }
  return new GatewayError({ status, code: detail?.type ?? 'upstream_rejected', message });
}

/** An `event: error` inside a stream; `retryable` only while nothing reached the caller. */
export function anthropicStreamError(data: string, retryable: boolean): GatewayError {
  const detail = errorDetail(data);
  const status = detail?.type === 'overloaded_error' ? 503 : 502;
  return errors.upstream(status, detail?.message ?? `upstream stream failed: ${data.slice(0, MAX_MESSAGE)}`, retryable);
}

function errorDetail(text: string): { type: string; message: string } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = anthropicErrorBodySchema.safeParse(json);
  return parsed.success ? parsed.data.error : undefined;
}
