/**
 * Which rules apply to which model — data, not branches in the use case. Keys are canonical catalogue
 * ids (aliases resolve before the rules run). Every model gets EVERY_MODEL; a model in MODEL_RULES adds
 * its own rules and, optionally, the output size its billing hold assumes when a request sets no
 * max_tokens (see docs/pricing.md).
 */
import type { ChatRule } from './chat-rule';
import {
  candidateCountPositive,
  mediaBlocksNeedMediaInput,
  promptFitsContextWindow,
  reasoningEffortAllowed,
  structuredOutputHasSchema,
  toolChoiceMatchesTools,
} from './chat-rules';

export interface ModelRuleSet {
  rules: readonly ChatRule[];
  /**
   * Output tokens the hold assumes without max_tokens: the window left after the prompt, at most this.
   * For models with no output limit of their own, whose catalogue cap is the whole window.
   */
  holdOutputCap?: number;
}

export const EVERY_MODEL: readonly ChatRule[] = [mediaBlocksNeedMediaInput];

export const MODEL_RULES: Readonly<Record<string, ModelRuleSet>> = {
  // SPEC.md §2.2
  'omega-k3': {
    rules: [reasoningEffortAllowed, toolChoiceMatchesTools, structuredOutputHasSchema, candidateCountPositive, promptFitsContextWindow],
    holdOutputCap: 131_072,
  },
};
