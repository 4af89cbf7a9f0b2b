/**
 * ChatAnswers rendered in OpenAI's wire formats: the chat.completion body, or the sequence of
 * chat.completion.chunk SSE events exactly as reference/openai.md describes them. Several answers are
 * the `n` candidates of one request: choices 0..n-1, streamed one after the other (each chunk names
 * its choice index, as the protocol allows).
 */
import type { ChatCompletionChunk, ChatCompletionResponse, ChatUsage } from '@unigate/contracts';
import type { SseEvent } from '../shared/sse-writer';
import { SeededRandom } from '../shared/seeded-random';
import type { ChatAnswer } from './openai-chat-answer';

export interface ReplyMeta {
  id: string;
  created: number;
  model: string;
}

export const SYSTEM_FINGERPRINT = 'fp_unigate_sim';

type Choice = ChatCompletionResponse['choices'][number];

export function toCompletion(answers: readonly ChatAnswer[], meta: ReplyMeta, usage: ChatUsage): ChatCompletionResponse {
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: answers.map(toChoice),
    usage,
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}

function toChoice(answer: ChatAnswer, index: number): Choice {
  const tool = answer.toolCall;
  return {
    index,
    message: {
      role: 'assistant',
      content: answer.content ? answer.content.join('') : null,
      ...(answer.reasoning && { reasoning_content: answer.reasoning.join('') }),
      refusal: null,
      ...(tool && {
        tool_calls: [{ id: tool.id, type: 'function', function: { name: tool.name, arguments: tool.argumentPieces.join('') } }],
      }),
    },
    logprobs: null,
    finish_reason: answer.finishReason,
  };
}

/** The SSE events of a streamed reply, ending with `[DONE]`. */
export function* toChunkEvents(
  answers: readonly ChatAnswer[],
  meta: ReplyMeta,
  includeUsage: boolean,
  usage: ChatUsage,
): Generator<SseEvent> {
  const chunk = (index: number, delta: ChatCompletionChunk['choices'][number]['delta'], finish: ChatAnswer['finishReason'] | null) => {
    const c: ChatCompletionChunk = {
      id: meta.id,
      object: 'chat.completion.chunk',
      created: meta.created,
      model: meta.model,
      system_fingerprint: SYSTEM_FINGERPRINT,
      choices: [{ index, delta, logprobs: null, finish_reason: finish }],
    };
    if (includeUsage) c.usage = null;
    return JSON.stringify(c);
  };

  for (const [index, answer] of answers.entries()) {
    yield { data: chunk(index, { role: 'assistant', content: '' }, null), counted: false };
    const rng = new SeededRandom(answer.seed ^ 0x9e3779b9);
    for (const reasoning_content of groups(answer.reasoning ?? [], rng))
      yield { data: chunk(index, { reasoning_content }, null), counted: true };
    if (answer.toolCall) {
      const { id, name, argumentPieces } = answer.toolCall;
      yield {
        data: chunk(index, { tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }] }, null),
        counted: true,
      };
      for (const args of groups(argumentPieces, rng)) {
        yield { data: chunk(index, { tool_calls: [{ index: 0, function: { arguments: args } }] }, null), counted: true };
      }
    } else {
      for (const content of groups(answer.content ?? [], rng)) yield { data: chunk(index, { content }, null), counted: true };
    }
    yield { data: chunk(index, {}, answer.finishReason), counted: false };
  }
  if (includeUsage) {
    const usageChunk: ChatCompletionChunk = {
      id: meta.id,
      object: 'chat.completion.chunk',
      created: meta.created,
      model: meta.model,
      system_fingerprint: SYSTEM_FINGERPRINT,
      choices: [],
      usage,
    };
    yield { data: JSON.stringify(usageChunk), counted: false };
  }
  yield { data: '[DONE]', counted: false };
}

/** One to three token pieces per chunk, like a real model's uneven deltas. */
function* groups(pieces: string[], rng: SeededRandom): Generator<string> {
  for (let i = 0; i < pieces.length;) {
    const n = rng.int(1, 3);
    yield pieces.slice(i, i + n).join('');
    i += n;
  }
}
