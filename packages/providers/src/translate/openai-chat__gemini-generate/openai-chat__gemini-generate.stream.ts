/**
 * Gemini's stream → chat.completion.chunk objects, one Gemini chunk at a time (nothing is buffered).
 * Every Gemini chunk is a whole GenerateContentResponse holding the next parts of each candidate:
 * thought text becomes `reasoning_content` deltas, text `content` deltas, and a function call — which
 * Gemini sends whole — one tool-call fragment carrying id, name and all the arguments. A candidate's
 * finishReason becomes a `{delta: {}, finish_reason}` chunk. Gemini has no `[DONE]`: the stream is
 * complete once every candidate it started has finished; the caller checks `finished` when the body
 * ends and then asks for the usage chunk (`usageMetadata` of the last chunk that had one).
 */
import { type ChatCompletionChunk, type ChatCompletionRequest, type ChatToolCallDelta } from '@unigate/contracts';
import type { GeminiResponse, GeminiResponsePart, GeminiUsage } from '../../gemini-generate/gemini-generate-schemas';
import { chatCompletionId, toToolCall } from './openai-chat__gemini-generate.response';
import { toChatUsage, toFinishReason } from './openai-chat__gemini-generate.usage';

type Delta = ChatCompletionChunk['choices'][number]['delta'];

interface ChoiceState {
  started: boolean;
  finished: boolean;
  toolCalls: number;
}

export class GeminiToChatStream {
  private id: string | undefined;
  private readonly created = Math.floor(Date.now() / 1000);
  private readonly choices = new Map<number, ChoiceState>();
  private usage: GeminiUsage | undefined;
  private blocked = false;

  constructor(private readonly req: ChatCompletionRequest) {}

  /** True once the upstream finished every candidate it started (or blocked the prompt). */
  get finished(): boolean {
    if (this.blocked) return true;
    if (this.choices.size === 0) return false;
    for (const c of this.choices.values()) if (!c.finished) return false;
    return true;
  }

  /** The chunks one upstream chunk becomes, in order. */
  push(res: GeminiResponse): ChatCompletionChunk[] {
    this.id ??= chatCompletionId(res.responseId);
    if (res.usageMetadata) this.usage = res.usageMetadata;
    const out: ChatCompletionChunk[] = [];
    const candidates = res.candidates ?? [];
    if (candidates.length === 0 && res.promptFeedback?.blockReason && this.choices.size === 0) {
      this.blocked = true;
      out.push(this.chunk(0, { role: 'assistant', content: '' }, null), this.chunk(0, {}, 'content_filter'));
      return out;
    }
    candidates.forEach((c, position) => {
      const index = c.index ?? position;
      const state = this.stateOf(index);
      for (const delta of this.deltas(c.content?.parts ?? [], state)) {
        if (!state.started) {
          delta.role = 'assistant';
          state.started = true;
        }
        out.push(this.chunk(index, delta, null));
      }
      if (c.finishReason && !state.finished) {
        if (!state.started) {
          out.push(this.chunk(index, { role: 'assistant', content: '' }, null));
          state.started = true;
        }
        state.finished = true;
        out.push(this.chunk(index, {}, toFinishReason(c.finishReason, state.toolCalls > 0)));
      }
    });
    return out;
  }

  /**
   * The closing chunk, `choices: []` with the upstream's usage; undefined when it never reported any
   * (the adapter's measurement then counts what was produced: usage/chat-usage.ts).
   */
  usageChunk(): ChatCompletionChunk | undefined {
    return this.usage ? { ...this.base(), choices: [], usage: toChatUsage(this.usage) } : undefined;
  }

  /** Consecutive parts of one kind (thought, text, function call) make one delta. */
  private deltas(parts: readonly GeminiResponsePart[], state: ChoiceState): Delta[] {
    const out: Delta[] = [];
    let current: Delta | undefined;
    let kind: 'thought' | 'text' | 'call' | undefined;
    for (const p of parts) {
      if (p.functionCall) {
        const call = toToolCall(p);
        const fragment: ChatToolCallDelta = { index: state.toolCalls++, id: call.id, type: 'function', function: call.function };
        if (kind !== 'call') out.push((current = { tool_calls: [] }));
        current!.tool_calls!.push(fragment);
        kind = 'call';
      } else if (typeof p.text === 'string' && p.text !== '') {
        const next = p.thought ? 'thought' : 'text';
        if (kind !== next) out.push((current = next === 'thought' ? { reasoning_content: '' } : { content: '' }));
        if (next === 'thought') current!.reasoning_content += p.text;
        else current!.content += p.text;
        kind = next;
      }
    }
    return out;
  }

  private stateOf(index: number): ChoiceState {
    let state = this.choices.get(index);
    if (!state) this.choices.set(index, (state = { started: false, finished: false, toolCalls: 0 }));
    return state;
  }

  private base() {
    return {
      id: this.id ?? chatCompletionId(undefined),
      object: 'chat.completion.chunk' as const,
      created: this.created,
      model: this.req.model,
    };
  }

  private chunk(index: number, delta: Delta, finish: ChatCompletionChunk['choices'][number]['finish_reason']): ChatCompletionChunk {
    return { ...this.base(), choices: [{ index, delta, logprobs: null, finish_reason: finish }] };
  }
}
