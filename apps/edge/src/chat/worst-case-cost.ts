/**
 * The most a chat request can cost, reserved before the upstream call: the prompt (estimated with a
 * safety margin, since vendors tokenize differently) plus every output token the request allows,
 * times the number of candidates.
 */
import { countPromptTokens, requestedMaxTokens, tokenCostMicros, type ChatCompletionRequest, type ModelInfo } from '@unigate/contracts';

export const DEFAULT_OUTPUT_CAP = 4096;

/** `defaultOutputTokens`: what to assume without max_tokens, when the model rules say (else max_output_tokens). */
export function worstCaseChatCostMicros(model: ModelInfo, body: ChatCompletionRequest, defaultOutputTokens?: number): number {
  const prompt = Math.ceil(countPromptTokens(body.messages) * 1.2) + 16;
  const output = (requestedMaxTokens(body) ?? defaultOutputTokens ?? model.max_output_tokens ?? DEFAULT_OUTPUT_CAP) * (body.n ?? 1);
  return tokenCostMicros(model.prices, { input_tokens: prompt, cached_input_tokens: 0, output_tokens: output });
}
