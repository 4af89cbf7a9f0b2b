/**
 * What Anthropic refuses about empty content, with its messages (400 invalid_request_error):
 * - a turn with no content, but for a final assistant turn (a prefill): "messages.N: all messages must
 *   have non-empty content except for the optional final assistant message";
 * - a text block of a turn that is empty, "messages: text content blocks must be non-empty", or only
 *   whitespace, "messages: text content blocks must contain non-whitespace text".
 * Clients meet these through translating proxies that turn an OpenAI "" into an empty text block.
 */
import { GatewayError, type AnthropicMessagesRequest } from '@unigate/contracts';

const refuse = (message: string) => new GatewayError({ status: 400, code: 'invalid_request_error', message });

export function refuseEmptyContent(req: Pick<AnthropicMessagesRequest, 'messages'>): void {
  const last = req.messages.length - 1;
  req.messages.forEach((m, i) => {
    const empty = typeof m.content === 'string' ? m.content === '' : m.content.length === 0;
    if (empty && !(i === last && m.role === 'assistant')) {
      throw refuse(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
    }
    if (typeof m.content === 'string') return;
    for (const block of m.content) {
      if (block.type !== 'text') continue;
      if (block.text === '') throw refuse('messages: text content blocks must be non-empty');
      if (block.text.trim() === '') throw refuse('messages: text content blocks must contain non-whitespace text');
    }
  });
}
