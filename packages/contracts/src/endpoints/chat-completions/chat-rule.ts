/** One per-model check of a chat request: throws a 400 GatewayError naming the field, or returns. */
import type { ModelInfo } from '../../catalog';
import type { ChatCompletionRequest } from '../../chat';

export interface ChatRuleInput {
  model: ModelInfo;
  body: ChatCompletionRequest;
  /** countPromptTokens of the messages, computed once and only when a rule needs it. */
  promptTokens(): number;
}

export type ChatRule = (input: ChatRuleInput) => void;
