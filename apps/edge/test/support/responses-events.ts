/** The Responses API's stream events that end a response's answer (over SSE or a WebSocket). */
export const RESPONSE_END_TYPES: readonly string[] = ['response.completed', 'response.incomplete', 'response.failed', 'error'];
