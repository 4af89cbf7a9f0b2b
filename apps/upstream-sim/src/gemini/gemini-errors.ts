/** Error bodies in Gemini's shape `{error:{code,message,status}}` (reference/gemini.md). */

const STATUS: Record<number, { status: string; message: string }> = {
  400: { status: 'INVALID_ARGUMENT', message: 'Request contains an invalid argument.' },
  401: { status: 'UNAUTHENTICATED', message: 'Request had invalid authentication credentials.' },
  403: { status: 'PERMISSION_DENIED', message: 'The caller does not have permission.' },
  404: { status: 'NOT_FOUND', message: 'Requested entity was not found.' },
  429: { status: 'RESOURCE_EXHAUSTED', message: 'Resource has been exhausted (e.g. check quota). (simulated)' },
  500: {
    status: 'INTERNAL',
    message:
      'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting (simulated)',
  },
  503: { status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later. (simulated)' },
  504: { status: 'DEADLINE_EXCEEDED', message: 'Deadline expired before operation could complete. (simulated)' },
};

export interface GeminiErrorBody {
  error: { code: number; message: string; status: string };
}

export function geminiErrorBody(code: number, message?: string): GeminiErrorBody {
  const d = STATUS[code] ?? { status: code >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION', message: `Simulated error ${code}.` };
  return { error: { code, message: message ?? d.message, status: d.status } };
}
