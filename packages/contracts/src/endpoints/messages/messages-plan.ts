/**
 * The plan of a messages-format request, on its own terms (no translation to chat form): the
 * prompt must fit the model's window, and the hold reserves the estimated prompt plus max_tokens
 * (at most what the model can produce); with a document the edge cannot count, the whole window.
 */
import type { AnthropicMessagesRequest } from '../../anthropic';
import type { ModelInfo } from '../../catalog';
import { errors } from '../../errors';
import { oneHourWritesDearer, type Usage } from '../../pricing';
import { countAnthropicPromptTokens, noMedia } from '../../tokens';
import { outputCeiling, worstCaseUsage } from '../chat-completions/chat-plan';
import { messagesAskOneHourCache } from '../one-hour-cache';

export function planMessages(model: ModelInfo, req: AnthropicMessagesRequest): Usage {
  const media = noMedia();
  const prompt = countAnthropicPromptTokens(req, media);
  if (model.context_window !== undefined && prompt > model.context_window) {
    throw errors.invalidRequest(
      `prompt is too long: about ${prompt} tokens > ${model.context_window} maximum`,
      'messages',
      'context_length_exceeded',
    );
  }
  const oneHourCache = oneHourWritesDearer(model.prices) && messagesAskOneHourCache(req);
  // A PDF or a document by URL: its pages are not counted here, only the model's window bounds them.
  return worstCaseUsage(prompt, outputCeiling(model, req.max_tokens), oneHourCache, { model, seen: media });
}
