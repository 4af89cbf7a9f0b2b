/**
 * Runs the rules of the requested model over a validated chat request, before any hold is placed or
 * upstream called. Throws the first rule's 400; otherwise says how many output tokens the billing
 * hold should assume when the request sets no max_tokens (undefined: the catalogue's max_output_tokens).
 */
import { countPromptTokens, requestedMaxTokens, type ChatCompletionRequest, type ModelInfo } from '@unigate/contracts';
import type { ChatRuleInput } from './chat-rule';
import { EVERY_MODEL, MODEL_RULES } from './rules-by-model';

export interface ChatRulesOutcome {
  holdOutputTokens?: number;
}

export function enforceChatModelRules(model: ModelInfo, body: ChatCompletionRequest): ChatRulesOutcome {
  let prompt: number | undefined;
  const input: ChatRuleInput = { model, body, promptTokens: () => (prompt ??= countPromptTokens(body.messages)) };
  const set = MODEL_RULES[model.id];
  for (const rule of EVERY_MODEL) rule(input);
  for (const rule of set?.rules ?? []) rule(input);
  if (set?.holdOutputCap === undefined || requestedMaxTokens(body) !== undefined) return {};
  const left = (model.context_window ?? Infinity) - input.promptTokens();
  return { holdOutputTokens: Math.max(1, Math.min(set.holdOutputCap, left)) };
}
