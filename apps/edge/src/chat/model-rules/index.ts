export { enforceChatModelRules, type ChatRulesOutcome } from './enforce-chat-model-rules';
export { EVERY_MODEL, MODEL_RULES, type ModelRuleSet } from './rules-by-model';
export type { ChatRule, ChatRuleInput } from './chat-rule';
