import type WebSocket from 'ws';

/** The Responses API's stream events that end a response's answer (over SSE or a WebSocket). */
export const RESPONSE_END_TYPES: readonly string[] = ['response.completed', 'response.incomplete', 'response.failed', 'error'];

/**
 * Sends one text message on a Responses WebSocket; the event that ends its answer. Rejects if the
 * connection closes or `timeoutMs` passes first.
 */
export function answerEnding<T extends { type: string }>(ws: WebSocket, text: string, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onMessage = (data: WebSocket.RawData) => {
      const event = JSON.parse(String(data)) as T;
      if (RESPONSE_END_TYPES.includes(event.type)) settle(() => resolve(event));
    };
    const onClose = (code: number) => settle(() => reject(new Error(`the connection closed (${code})`)));
    const timer = setTimeout(() => settle(() => reject(new Error(`no answer within ${timeoutMs} ms`))), timeoutMs);
    const settle = (end: () => void) => {
      clearTimeout(timer);
      ws.off('message', onMessage).off('close', onClose);
      end();
    };
    ws.on('message', onMessage).on('close', onClose);
    ws.send(text);
  });
}
