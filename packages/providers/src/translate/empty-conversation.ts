/**
 * A chat request that leaves the upstream nothing to answer once translated — system instructions
 * alone, or user messages with empty content — is refused by Gemini ("contents is not specified") and
 * by Anthropic (no messages, or only empty ones) in their own words, about fields the client never
 * sent. The translators to those protocols refuse it first, with this 400 naming the client's
 * `messages` (a Responses client's `input`: client-paths.ts). OpenAI's chat protocol takes system
 * messages alone, so its requests pass as they are.
 */
import { errors, type GatewayError } from '@unigate/contracts';

export function emptyConversation(): GatewayError {
  return errors.invalidRequest(
    "Invalid 'messages': the model needs at least one user or assistant message with content besides the system instructions.",
    'messages',
  );
}
