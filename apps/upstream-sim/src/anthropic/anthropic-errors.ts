/** Error bodies in Anthropic's shape `{type:'error', error:{type, message}, request_id}` (reference/anthropic.md). */

const TYPES: Record<number, { type: string; message: string }> = {
  400: { type: 'invalid_request_error', message: 'Bad request (simulated).' },
  401: { type: 'authentication_error', message: 'invalid x-api-key (simulated)' },
  402: { type: 'billing_error', message: 'Your credit balance is too low (simulated).' },
  403: { type: 'permission_error', message: 'Your API key does not have permission to use this resource (simulated).' },
  404: { type: 'not_found_error', message: 'The requested resource could not be found (simulated).' },
  413: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes (simulated).' },
  429: { type: 'rate_limit_error', message: 'This request would exceed your rate limit (simulated).' },
  500: { type: 'api_error', message: 'Internal server error (simulated).' },
  529: { type: 'overloaded_error', message: 'Overloaded' },
};

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id: string;
}

/** The body Anthropic would send with `status`; `message` overrides the default text. */
export function anthropicErrorBody(status: number, requestId: string, message?: string): AnthropicErrorBody {
  const d = TYPES[status] ?? { type: status >= 500 ? 'api_error' : 'invalid_request_error', message: `Simulated error ${status}.` };
  return { type: 'error', error: { type: d.type, message: message ?? d.message }, request_id: requestId };
}
