/** Error bodies in OpenAI's shape `{error:{message,type,param,code}}` (reference/openai.md). */

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

const DEFAULTS: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: 'invalid_request_error', code: null, message: 'Bad request (simulated).' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided (simulated).' },
  403: { type: 'permission_error', code: null, message: 'You are not allowed to use this model (simulated).' },
  404: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist (simulated).' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests (simulated).' },
  500: { type: 'server_error', code: null, message: 'The server had an error while processing your request (simulated).' },
  503: { type: 'server_error', code: 'service_unavailable', message: 'The engine is currently overloaded (simulated).' },
};

/** The body OpenAI would send with `status`; `message` overrides the default text. */
export function openAiErrorBody(status: number, message?: string): OpenAiErrorBody {
  const d = DEFAULTS[status] ?? {
    type: status >= 500 ? 'server_error' : 'invalid_request_error',
    code: null,
    message: `Simulated error ${status}.`,
  };
  return { error: { message: message ?? d.message, type: d.type, param: null, code: d.code } };
}

export function invalidRequestBody(message: string, param: string | null = null, code: string | null = null): OpenAiErrorBody {
  return { error: { message, type: 'invalid_request_error', param, code } };
}
