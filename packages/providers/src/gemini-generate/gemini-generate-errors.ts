/**
 * Gemini error bodies `{error:{code,message,status,details}}` as GatewayErrors, by the same rules as
 * the OpenAI adapter: 429 (RESOURCE_EXHAUSTED) and 5xx are the upstream's trouble — retryable on another
 * channel. A rejected API key (Gemini answers 400 API_KEY_INVALID, or 401/403) and a 404 for the
 * channel's model are the channel's configuration, not the client's request: retryable 502s that do
 * not leak the vendor's wording about keys. Any other 4xx (INVALID_ARGUMENT, FAILED_PRECONDITION) is
 * about the request: same status, the upstream's message.
 */
import { errors, GatewayError } from '@unigate/contracts';
import { geminiErrorBodySchema } from './gemini-generate-schemas';

const MAX_MESSAGE = 1000;

export function geminiHttpError(status: number, bodyText: string): GatewayError {
  const detail = errorDetail(bodyText);
  const message = detail.message ?? (bodyText.trim().slice(0, MAX_MESSAGE) || `upstream answered HTTP ${status}`);
  if (status === 429 || status >= 500) return errors.upstream(status, message, true);
  if (status === 401 || status === 403 || detail.keyRejected) {
    return errors.upstream(502, `upstream rejected the gateway's credentials for this channel (HTTP ${status})`, true);
  }
  if (status === 404) return errors.upstream(502, `upstream does not serve this channel's model: ${message}`, true);
  return new GatewayError({ status, code: detail.status?.toLowerCase() ?? 'upstream_rejected', message });
}

/** An `{error}` payload inside a stream (Gemini reports mid-stream failures that way). */
export function geminiStreamError(data: string, retryable: boolean): GatewayError {
  const detail = errorDetail(data);
  return errors.upstream(502, detail.message ?? `upstream stream failed: ${data.slice(0, MAX_MESSAGE)}`, retryable);
}

function errorDetail(text: string): { message?: string; status?: string; keyRejected?: boolean } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {};
  }
  const parsed = geminiErrorBodySchema.safeParse(json);
  if (!parsed.success) return {};
  const e = parsed.data.error;
  const keyRejected = (e.details ?? []).some((d) => d.reason === 'API_KEY_INVALID') || e.status === 'UNAUTHENTICATED';
  return { message: e.message, status: e.status ?? undefined, keyRejected };
}
