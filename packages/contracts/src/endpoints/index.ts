/** Every public metered operation, declared once (endpoint-spec.ts). The edge serves exactly these. */
import type { AnyEndpointSpec } from './endpoint-spec';
import { chatCompletionsSpec } from './chat-completions/endpoint';
import { countTokensSpec, messagesSpec } from './messages/endpoint';
import { responsesSpec } from './responses/endpoint';
import { embeddingsSpec } from './embeddings/endpoint';
import { speechSpec } from './speech/endpoint';
import { imageEditsSpec } from './images/edits-endpoint';
import { imageGenerationsSpec } from './images/generations-endpoint';
import { videoGenerationsSpec } from './videos/endpoint';

export * from './endpoint-spec';
export { isPublicAddress } from './private-host';
export { chatCompletionsSpec } from './chat-completions/endpoint';
export { planChatCompletion, worstCaseUsage, outputCeiling, DEFAULT_OUTPUT_CAP } from './chat-completions/chat-plan';
export { MODEL_RULES, EVERY_MODEL, type ModelRuleSet } from './chat-completions/rules-by-model';
export type { ChatRule, ChatRuleInput } from './chat-completions/chat-rule';
export { messagesSpec, countTokensSpec } from './messages/endpoint';
export { someBlock } from './one-hour-cache';
export { responsesSpec, responseIdFor, responseFailure } from './responses/endpoint';
export * from './embeddings/endpoint';
export * from './speech/endpoint';
export * from './images/edits-endpoint';
export * from './images/generations-endpoint';
export * from './images/delta-rules';
export * from './images/image-response';
export * from './images/image-sniff';
export * from './images/alpha-generation';
export * from './images/gamma-generation';
export * from './videos/endpoint';
export * from './videos/video-rules';
export * from './videos/video-task';
export * from './videos/webhook-url';

export const ENDPOINTS: readonly AnyEndpointSpec[] = [
  chatCompletionsSpec,
  messagesSpec,
  countTokensSpec,
  responsesSpec,
  embeddingsSpec,
  speechSpec,
  imageGenerationsSpec,
  imageEditsSpec,
  videoGenerationsSpec,
];

const BY_NAME = new Map(ENDPOINTS.map((s) => [s.name, s]));

/** The spec of a named endpoint, or undefined. */
export function endpointSpec(name: string): AnyEndpointSpec | undefined {
  return BY_NAME.get(name);
}
