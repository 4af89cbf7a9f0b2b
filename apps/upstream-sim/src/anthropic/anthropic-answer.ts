/**
 * What the simulated Anthropic model answers: the shared generator's answer (same prompt → same text
 * as the OpenAI endpoint), with Anthropic's stop reasons — including which stop sequence matched —
 * tool-use ids, a thinking signature, and usage split into uncached input, cache reads and cache
 * writes, these also by ttl (see anthropic-prompt-cache.ts). Decided before any byte is written, so the streamed and the
 * whole answer are the same.
 */
import { countPromptTokens, type AnthropicMessagesRequest, type AnthropicStopReason, type AnthropicUsage } from '@unigate/contracts';
import { createHash } from 'node:crypto';
import { answerChat, type ChatAnswer } from '../openai/openai-chat-answer';
import { generatorRequest } from './anthropic-prompt';
import type { CacheUse, PromptCache } from './anthropic-prompt-cache';

export interface AnthropicAnswer {
  thinking: string[] | null;
  /** Base64, like the real one; lets a client send the thinking block back. */
  signature: string | null;
  text: string[] | null;
  toolUse: { id: string; name: string; inputPieces: string[] } | null;
  stopReason: AnthropicStopReason;
  stopSequence: string | null;
  usage: Required<Pick<AnthropicUsage, 'input_tokens' | 'output_tokens'>> & {
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
    cache_creation: CacheUse['cache_creation'];
  };
  /** Seeds how a stream groups pieces into deltas. */
  seed: number;
}

export function answerMessages(req: AnthropicMessagesRequest, cache: PromptCache): AnthropicAnswer {
  const chatReq = generatorRequest(req);
  const answer = answerChat(chatReq);
  const total = countPromptTokens(chatReq.messages);
  const cached = cache.use(req);
  const thinking = answer.reasoning && answer.reasoning.length > 0 ? answer.reasoning : null;
  const stopSequence = answer.finishReason === 'stop' && chatReq.stop ? matchedStop(chatReq, answer) : null;
  return {
    thinking,
    signature: thinking ? createHash('sha256').update(thinking.join('')).digest('base64') : null,
    text: answer.content,
    toolUse: answer.toolCall && {
      id: answer.toolCall.id.replace(/^call_/, 'toolu_'),
      name: answer.toolCall.name,
      inputPieces: answer.toolCall.argumentPieces,
    },
    stopReason: stopSequence ? 'stop_sequence' : STOP_REASONS[answer.finishReason],
    stopSequence,
    usage: {
      input_tokens: total - cached.cache_read_input_tokens - cached.cache_creation_input_tokens,
      cache_creation_input_tokens: cached.cache_creation_input_tokens,
      cache_read_input_tokens: cached.cache_read_input_tokens,
      cache_creation: cached.cache_creation,
      output_tokens: answer.usage.completion_tokens,
    },
    seed: answer.seed,
  };
}

const STOP_REASONS: Record<ChatAnswer['finishReason'], AnthropicStopReason> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
};

/** The stop sequence that cut the answer short, if one did: the first to occur in the uncut answer. */
function matchedStop(chatReq: ReturnType<typeof generatorRequest>, cut: ChatAnswer): string | null {
  const full = answerChat({ ...chatReq, stop: undefined, max_tokens: undefined }).content?.join('') ?? '';
  const kept = cut.content?.join('') ?? '';
  if (full.length === kept.length) return null;
  const stops = (Array.isArray(chatReq.stop) ? chatReq.stop : [chatReq.stop ?? '']).filter((s) => s && full.startsWith(s, kept.length));
  return stops[0] ?? null;
}
