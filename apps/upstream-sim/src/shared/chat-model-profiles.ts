/**
 * How a simulated chat model behaves beyond the shared answer generator, by model name: the few
 * vendor traits tests rely on. Unknown names get the plain profile (any model name is accepted).
 */
import { countPromptTokens, errors, type ChatCompletionRequest } from '@unigate/contracts';

export interface SimChatProfile {
  /** Thinking always on: every answer carries reasoning, billed as completion tokens. */
  alwaysThinks: boolean;
  /** Automatic context caching from this many prefix tokens on; absent = no caching. */
  promptCacheMinTokens?: number;
  /** Prompts larger than this are rejected (context_length_exceeded). */
  contextWindow?: number;
  /** Accepted `reasoning_effort` values; absent = any. */
  reasoningEfforts?: readonly string[];
}

const PLAIN: SimChatProfile = { alwaysThinks: false };

const PROFILES: ReadonlyArray<[RegExp, SimChatProfile]> = [
  // SPEC.md §2.2: 1,048,576-token window, thinking always on, only `max` effort, automatic caching.
  [/^omega-k3/, { alwaysThinks: true, promptCacheMinTokens: 0, contextWindow: 1_048_576, reasoningEfforts: ['max'] }],
  // Gemini's implicit caching starts at 1,024 prompt tokens.
  [/^(gamma|gemini)-/, { alwaysThinks: false, promptCacheMinTokens: 1024, contextWindow: 1_048_576 }],
];

export function chatProfileFor(model: string): SimChatProfile {
  return PROFILES.find(([re]) => re.test(model))?.[1] ?? PLAIN;
}

/** The upstream's own checks for a profile (the gateway checks first; a direct client meets these). */
export function checkChatProfile(profile: SimChatProfile, body: ChatCompletionRequest): void {
  const effort = body.reasoning_effort;
  if (effort !== undefined && profile.reasoningEfforts && !profile.reasoningEfforts.includes(effort)) {
    throw errors.invalidRequest(
      `Invalid value for 'reasoning_effort': '${effort}'. Supported values: ${profile.reasoningEfforts.join(', ')}.`,
      'reasoning_effort',
    );
  }
  if (profile.contextWindow !== undefined) {
    const prompt = countPromptTokens(body.messages);
    if (prompt > profile.contextWindow) {
      throw errors.invalidRequest(
        `This model's maximum context length is ${profile.contextWindow} tokens, but the messages hold ${prompt} tokens.`,
        'messages',
        'context_length_exceeded',
      );
    }
  }
}
