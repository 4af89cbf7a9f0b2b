/**
 * What the simulated model answers to a chat request — decided once, before any byte is written, so
 * the streamed and the non-streamed reply carry the same text. The answer is a pure function of the
 * request: the messages seed the generator; temperature and friends are accepted and ignored.
 */
import {
  countPromptTokens,
  countTextTokens,
  requestedMaxTokens,
  splitTextTokens,
  type ChatCompletionRequest,
  type ChatUsage,
} from '@unigate/contracts';
import { planToolCall, textAnswer } from '../shared/agent-turn';
import { sampleFromSchema } from '../shared/json-sample';
import { generateProse, proseWords } from '../shared/prose';
import { SeededRandom, seedFrom, stableId } from '../shared/seeded-random';

export interface ChatAnswer {
  /** Thinking shown as `reasoning_content`, one token per piece; null for non-reasoning models. */
  reasoning: string[] | null;
  /** The visible content, one token per piece; null when the model calls a tool. */
  content: string[] | null;
  toolCall: { id: string; name: string; argumentPieces: string[] } | null;
  finishReason: 'stop' | 'length' | 'tool_calls';
  usage: ChatUsage;
  /** Seeds how a stream groups pieces into chunks. */
  seed: number;
}

/**
 * Models that think before answering: any model named like a reasoner, or any request that sets
 * reasoning_effort. Their reasoning tokens count as completion tokens and within max_tokens.
 */
const REASONING_MODEL = /reason|think/i;

export interface AnswerOptions {
  /** Which of the `n` candidates (0 first): each has its own seed, so candidates differ. */
  candidate?: number;
  /** Think (or not) regardless of the model name and reasoning_effort: a model with thinking always on. */
  thinks?: boolean;
}

export function answerChat(body: ChatCompletionRequest, opts: AnswerOptions = {}): ChatAnswer {
  const candidate = opts.candidate ?? 0;
  const seed = (seedFrom(body.messages) ^ Math.imul(candidate, 0x9e3779b1)) >>> 0;
  const rng = new SeededRandom(seed);
  let budget = requestedMaxTokens(body) ?? Infinity;
  const promptTokens = countPromptTokens(body.messages);

  let reasoning: string[] | null = null;
  if (opts.thinks ?? (body.reasoning_effort !== undefined || REASONING_MODEL.test(body.model))) {
    const thinking = new SeededRandom(seed ^ 0x5bd1e995); // its own stream: the answer stays the same
    reasoning = cap(splitTextTokens(generateProse(thinking, thinking.int(15, 40))), budget).pieces;
    budget -= reasoning.length;
  }
  const reasoningTokens = reasoning?.length ?? 0;
  const base = { reasoning, seed };

  const tool = planToolCall(body, rng);
  if (tool) {
    const args = JSON.stringify(tool.args);
    const nameTokens = countTextTokens(tool.name);
    const { pieces, capped } = cap(splitTextTokens(args), Math.max(0, budget - nameTokens));
    return {
      ...base,
      content: null,
      toolCall: { id: `call_${stableId(seed)}`, name: tool.name, argumentPieces: pieces },
      finishReason: capped || budget <= 0 ? 'length' : 'tool_calls',
      usage: usage(promptTokens, reasoningTokens + nameTokens + countTextTokens(pieces.join('')), reasoningTokens),
    };
  }

  let text = answerText(body, rng);
  const stopAt = firstStop(text, body.stop);
  if (stopAt >= 0) text = text.slice(0, stopAt);
  const { pieces, capped } = cap(splitTextTokens(text), budget);
  return {
    ...base,
    content: pieces,
    toolCall: null,
    finishReason: capped ? 'length' : 'stop',
    usage: usage(promptTokens, reasoningTokens + countTextTokens(pieces.join('')), reasoningTokens),
  };
}

function answerText(body: ChatCompletionRequest, rng: SeededRandom): string {
  const format = body.response_format;
  if (format?.type === 'json_schema' && format.json_schema.schema) {
    return JSON.stringify(sampleFromSchema(format.json_schema.schema, rng));
  }
  if (format?.type === 'json_object' || format?.type === 'json_schema') {
    return JSON.stringify({ answer: generateProse(rng, 8), confidence: rng.int(50, 99) / 100, topics: proseWords(rng, 2) });
  }
  return textAnswer(body.messages, () => generateProse(rng, rng.int(20, 60)));
}

function firstStop(text: string, stop: ChatCompletionRequest['stop']): number {
  const stops = (typeof stop === 'string' ? [stop] : (stop ?? [])).filter((s) => s.length > 0);
  let at = -1;
  for (const s of stops) {
    const i = text.indexOf(s);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  return at;
}

function cap(pieces: string[], max: number): { pieces: string[]; capped: boolean } {
  return pieces.length > max ? { pieces: pieces.slice(0, max), capped: true } : { pieces, capped: false };
}

function usage(prompt: number, completion: number, reasoning: number): ChatUsage {
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: reasoning },
  };
}

/**
 * The usage of one reply carrying several candidates: the prompt counts once, completions add up;
 * `cachedTokens` is what automatic context caching served of the prompt.
 */
export function replyUsage(answers: readonly ChatAnswer[], cachedTokens = 0): ChatUsage {
  const prompt = answers[0]?.usage.prompt_tokens ?? 0;
  let completion = 0;
  let reasoning = 0;
  for (const a of answers) {
    completion += a.usage.completion_tokens;
    reasoning += a.usage.completion_tokens_details?.reasoning_tokens ?? 0;
  }
  const u = usage(prompt, completion, reasoning);
  u.prompt_tokens_details = { cached_tokens: Math.min(cachedTokens, prompt) };
  return u;
}
