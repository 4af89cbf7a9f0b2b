/**
 * What a chat call is billed for, from the usage the adapters measure: cached prompt tokens at the
 * cached price, reasoning tokens as output (they are inside completion_tokens); a stream without a
 * usage chunk is counted and gets one.
 */
import {
  costMicros,
  countPromptTokens,
  countTextTokens,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  type Prices,
} from '@unigate/contracts';
import { measureChatResponse, measureChatStream } from './chat-usage';

// omega-k3's default prices (docs/pricing.md): $0.60 input, $0.15 cached input, $2.50 output per Mtok.
const OMEGA: Prices = { input_per_mtok: 600_000, cached_input_per_mtok: 150_000, output_per_mtok: 2_500_000 };
const request: ChatCompletionRequest = { model: 'omega-k3', messages: [{ role: 'user', content: 'Summarise the document.' }] };
const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk' as const, created: 1, model: 'omega-k3' };
const textChunk = (content: string): ChatCompletionChunk => ({ ...base, choices: [{ index: 0, delta: { content }, finish_reason: null }] });
const usageChunk = (cached: number, reasoning: number): ChatCompletionChunk => ({
  ...base,
  choices: [],
  usage: {
    prompt_tokens: 100_000,
    completion_tokens: 2_000 + reasoning,
    total_tokens: 102_000 + reasoning,
    prompt_tokens_details: { cached_tokens: cached },
    completion_tokens_details: { reasoning_tokens: reasoning },
  },
});

async function drain<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function* from<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

async function billed(cached: number, reasoning = 0) {
  const stream = measureChatStream(from([textChunk('Done.'), usageChunk(cached, reasoning)]), request);
  await drain(stream);
  const units = stream.usage();
  return { units, cost: costMicros(OMEGA, units) };
}

describe('measured chat usage → cost', () => {
  it('bills cached prompt tokens at the cached price: a cache hit costs less', async () => {
    const cold = await billed(0);
    const warm = await billed(96_000);
    expect(warm.units).toEqual({ input_tokens: 100_000, cached_input_tokens: 96_000, output_tokens: 2_000 });
    // cold: 100k × $0.60 + 2k × $2.50 = $0.065; warm: 4k × $0.60 + 96k × $0.15 + 2k × $2.50 = $0.0218
    expect(cold.cost).toBe(65_000);
    expect(warm.cost).toBe(21_800);
    expect(warm.cost).toBeLessThan(cold.cost);
  });

  it('bills reasoning tokens as output, since they are inside completion_tokens', async () => {
    const thinking = await billed(0, 3_000);
    expect(thinking.units.output_tokens).toBe(5_000);
    expect(thinking.cost - (await billed(0)).cost).toBe(7_500); // 3k × $2.50 per Mtok
  });

  it('never counts more cached tokens than prompt tokens', async () => {
    expect((await billed(250_000)).units.cached_input_tokens).toBe(100_000);
  });

  it('counts what went out when the stream was cut before its usage chunk', async () => {
    const cut = measureChatStream(
      (async function* () {
        yield textChunk('Half of the answer');
        throw new Error('cut');
      })(),
      request,
    );
    await expect(drain(cut)).rejects.toThrow('cut');
    expect(cut.usage()).toEqual({
      input_tokens: countPromptTokens(request.messages),
      cached_input_tokens: 0,
      output_tokens: countTextTokens('Half of the answer'),
    });
  });

  it('adds a counted usage chunk to a stream that completed without one', async () => {
    const stream = measureChatStream(
      from([textChunk('Hello there'), { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' as const }] }]),
      request,
    );
    const chunks = await drain(stream);
    const last = chunks[chunks.length - 1];
    const prompt = countPromptTokens(request.messages);
    const output = countTextTokens('Hello there');
    expect(last).toMatchObject({
      ...base,
      choices: [],
      usage: { prompt_tokens: prompt, completion_tokens: output, total_tokens: prompt + output },
    });
    expect(stream.usage()).toEqual({ input_tokens: prompt, cached_input_tokens: 0, output_tokens: output });
  });

  it('charges nothing for a stream that produced nothing', async () => {
    const empty = measureChatStream(from<ChatCompletionChunk>([]), request);
    expect(await drain(empty)).toEqual([]);
    expect(empty.usage()).toEqual({});
  });

  it('measures a whole answer without usage by counting it', () => {
    const measured = measureChatResponse(
      {
        id: 'c',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Four words are here' }, finish_reason: 'stop' }],
      },
      request,
    );
    expect(measured.usage.output_tokens).toBe(countTextTokens('Four words are here'));
    expect(measured.value.usage.completion_tokens).toBe(measured.usage.output_tokens);
  });
});
