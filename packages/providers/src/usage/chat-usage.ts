/**
 * Measuring chat-completions answers and streams, whatever upstream produced them: the upstream's
 * usage when it reported some, the tally's count otherwise. Every chat adapter returns its answer or
 * chunks through these, so a vendor that omits usage is still billed, and a client asking for
 * `include_usage` still gets a usage chunk.
 */
import {
  chatCompletionResponseSchema,
  chatUsageSchema,
  countPromptTokens,
  usageFromChat,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  type ChatCompletionResponse,
  type ChatUsage,
} from '@unigate/contracts';
import type { z } from 'zod';
import type { Measured, MeasuredStream } from '../adapter';
import { UsageTally } from './usage-tally';

// Only for its type: a chat answer as a translation produces it, before it is measured.
const _unmeteredChatResponse = chatCompletionResponseSchema.extend({ usage: chatUsageSchema.nullish() });
/** A chat answer with usage only when the upstream reported it. */
export type UnmeteredChatResponse = z.infer<typeof _unmeteredChatResponse>;

export function chatPromptTally(req: Pick<ChatCompletionRequest, 'messages'>): UsageTally {
  return new UsageTally(() => countPromptTokens(req.messages));
}

function toChatUsage(tally: UsageTally): ChatUsage {
  const u = tally.usage();
  const prompt = u.input_tokens ?? 0;
  const completion = u.output_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export function measureChatResponse(res: UnmeteredChatResponse, req: ChatCompletionRequest): Measured<ChatCompletionResponse> {
  if (res.usage) return { value: { ...res, usage: res.usage }, usage: usageFromChat(res.usage) };
  const tally = chatPromptTally(req);
  for (const { message: m } of res.choices) {
    tally.produce(m.content);
    tally.produce(m.reasoning_content);
    for (const t of m.tool_calls ?? []) tally.produce(t.function.name + t.function.arguments);
  }
  const usage = toChatUsage(tally);
  return { value: { ...res, usage }, usage: usageFromChat(usage) };
}

/**
 * The chunks as they come, measured. The upstream's usage chunk (`choices: []`, `usage`) is final; a
 * stream that completed without one gets one at the end, counted by the tally.
 */
export function measureChatStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  req: ChatCompletionRequest,
): MeasuredStream<ChatCompletionChunk> {
  const tally = chatPromptTally(req);
  let reported = false;
  return {
    async *[Symbol.asyncIterator]() {
      let last: ChatCompletionChunk | undefined;
      for await (const chunk of chunks) {
        last = chunk;
        if (chunk.usage) {
          reported = true;
          tally.report(usageFromChat(chunk.usage), true);
        }
        for (const choice of chunk.choices) {
          const d = choice.delta;
          tally.produce(d.content);
          tally.produce(d.reasoning_content);
          for (const tc of d.tool_calls ?? []) tally.produce((tc.function?.name ?? '') + (tc.function?.arguments ?? ''));
        }
        yield chunk;
      }
      if (last && !reported) {
        const { id, created, model, system_fingerprint } = last;
        yield {
          id,
          object: 'chat.completion.chunk',
          created,
          model,
          choices: [],
          usage: toChatUsage(tally),
          ...(system_fingerprint && { system_fingerprint }),
        };
      }
    },
    usage: () => tally.usage(),
  };
}
