/**
 * ChatAnswers rendered as Gemini GenerateContentResponses (reference/gemini.md): the whole response,
 * or the stream of chunks — each chunk itself a whole GenerateContentResponse carrying the next parts,
 * usageMetadata on every chunk (complete on the last), finishReason on a candidate's last chunk, no
 * `[DONE]`. Thought parts are included only when the request asked for them; thoughts are counted
 * either way (`thoughtsTokenCount`, apart from `candidatesTokenCount`).
 */
import type { ChatUsage } from '@unigate/contracts';
import type { ChatAnswer } from '../openai/openai-chat-answer';
import { SeededRandom } from '../shared/seeded-random';
import type { SseEvent } from '../shared/sse-writer';

export interface GeminiReplyMeta {
  responseId: string;
  modelVersion: string;
  showThoughts: boolean;
}

type Part = { text: string; thought?: true } | { functionCall: { name: string; args: Record<string, unknown> } };

export function toGenerateContentResponse(answers: readonly ChatAnswer[], meta: GeminiReplyMeta, usage: ChatUsage) {
  return {
    candidates: answers.map((a, index) => ({
      content: { role: 'model', parts: partsOf(a, meta.showThoughts) },
      finishReason: finishReason(a),
      index,
    })),
    usageMetadata: usageMetadata(usage),
    modelVersion: meta.modelVersion,
    responseId: meta.responseId,
  };
}

/** The SSE events of streamGenerateContent?alt=sse: candidates one after the other, a few tokens per chunk. */
export function* toGeminiChunkEvents(answers: readonly ChatAnswer[], meta: GeminiReplyMeta, usage: ChatUsage): Generator<SseEvent> {
  const running = { promptTokenCount: usage.prompt_tokens, totalTokenCount: usage.prompt_tokens };
  const chunk = (index: number, parts: Part[], finish?: string, final?: boolean) =>
    JSON.stringify({
      candidates: [{ content: { role: 'model', parts }, ...(finish && { finishReason: finish }), index }],
      usageMetadata: final ? usageMetadata(usage) : running,
      modelVersion: meta.modelVersion,
      responseId: meta.responseId,
    });

  for (const [index, answer] of answers.entries()) {
    const last = index === answers.length - 1;
    const rng = new SeededRandom(answer.seed ^ 0x7f4a7c15);
    const texts: Part[] = [];
    if (meta.showThoughts) for (const text of groups(answer.reasoning ?? [], rng)) texts.push({ text, thought: true });
    for (const text of groups(answer.content ?? [], rng)) texts.push({ text });
    const call = functionCallPart(answer);
    // The last chunk of a candidate carries its last part (or the function call) and its finishReason.
    const closing: Part[] = call ? [call] : texts.length > 0 ? [texts.pop()!] : [{ text: '' }];
    for (const part of texts) yield { data: chunk(index, [part]), counted: true };
    yield { data: chunk(index, closing, finishReason(answer), last), counted: true };
  }
}

function partsOf(answer: ChatAnswer, showThoughts: boolean): Part[] {
  const parts: Part[] = [];
  if (showThoughts && answer.reasoning?.length) parts.push({ text: answer.reasoning.join(''), thought: true });
  if (answer.content?.length) parts.push({ text: answer.content.join('') });
  const call = functionCallPart(answer);
  if (call) parts.push(call);
  if (parts.length === 0) parts.push({ text: '' });
  return parts;
}

/** A function call is sent whole, with its arguments as an object — none when max tokens cut them short. */
function functionCallPart(answer: ChatAnswer): Part | undefined {
  if (!answer.toolCall) return undefined;
  try {
    const args: unknown = JSON.parse(answer.toolCall.argumentPieces.join(''));
    return { functionCall: { name: answer.toolCall.name, args: args as Record<string, unknown> } };
  } catch {
    return undefined;
  }
}

/** Gemini ends a function call with STOP too; a cap is MAX_TOKENS. */
function finishReason(answer: ChatAnswer): string {
  return answer.finishReason === 'length' ? 'MAX_TOKENS' : 'STOP';
}

function usageMetadata(u: ChatUsage) {
  const thoughts = u.completion_tokens_details?.reasoning_tokens ?? 0;
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    promptTokenCount: u.prompt_tokens,
    candidatesTokenCount: u.completion_tokens - thoughts,
    totalTokenCount: u.total_tokens,
    ...(cached > 0 && { cachedContentTokenCount: cached }),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: u.prompt_tokens }],
    ...(thoughts > 0 && { thoughtsTokenCount: thoughts }),
  };
}

/** Gemini streams in larger pieces than OpenAI: three to eight tokens per chunk. */
function* groups(pieces: string[], rng: SeededRandom): Generator<string> {
  for (let i = 0; i < pieces.length;) {
    const n = rng.int(3, 8);
    yield pieces.slice(i, i + n).join('');
    i += n;
  }
}
