/** omega-k3 on the simulator's OpenAI endpoint (SPEC.md §2.2), driven by the official openai client. */
import OpenAI from 'openai';
import { countTextTokens } from '@unigate/contracts';
import { createSimulator, type Simulator } from '../src';

let sim: Simulator;
let client: OpenAI;

beforeAll(async () => {
  sim = await createSimulator({ tokenDelayMs: 0 });
  client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'sk-sim-test', maxRetries: 0 });
});
afterAll(() => sim.close());

const MODEL = 'omega-k3';
type Reasoned = { reasoning_content?: string; content?: string | null };

describe('omega-k3', () => {
  it('always thinks: reasoning_content in the message and the stream, counted inside completion_tokens', async () => {
    const messages = [{ role: 'user' as const, content: 'Think about omega.' }];
    const whole = await client.chat.completions.create({ model: MODEL, messages });
    const message = whole.choices[0].message as Reasoned;
    const reasoningTokens = countTextTokens(message.reasoning_content!);
    expect(reasoningTokens).toBeGreaterThan(0);
    expect(whole.usage!.completion_tokens_details!.reasoning_tokens).toBe(reasoningTokens);
    expect(whole.usage!.completion_tokens).toBe(reasoningTokens + countTextTokens(message.content!));

    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Think about streams.' }],
      stream: true,
    });
    let reasoning = '';
    for await (const c of stream) reasoning += (c.choices[0]?.delta as Reasoned | undefined)?.reasoning_content ?? '';
    expect(reasoning.length).toBeGreaterThan(0);
  });

  it('reports a repeated message prefix as cached prompt tokens', async () => {
    const history = [
      { role: 'system' as const, content: 'You are a careful analyst of long documents.' },
      { role: 'user' as const, content: 'Here is the document: the river meets the sea.' },
    ];
    const first = await client.chat.completions.create({ model: MODEL, messages: history });
    expect(first.usage!.prompt_tokens_details!.cached_tokens).toBe(0);
    const again = await client.chat.completions.create({
      model: MODEL,
      messages: [...history, { role: 'assistant', content: 'Noted.' }, { role: 'user', content: 'Summarise.' }],
    });
    // Both earlier messages: every prompt token but the reply priming (3).
    expect(again.usage!.prompt_tokens_details!.cached_tokens).toBe(first.usage!.prompt_tokens - 3);
    expect(again.usage!.prompt_tokens).toBeGreaterThan(first.usage!.prompt_tokens);
  });

  it('answers n candidates, each its own choice, completion tokens summed', async () => {
    const messages = [{ role: 'user' as const, content: 'Two candidates please.' }];
    const r = await client.chat.completions.create({ model: MODEL, messages, n: 2 });
    expect(r.choices.map((c) => c.index)).toEqual([0, 1]);
    expect(r.choices[0].message.content).not.toBe(r.choices[1].message.content);
    const tokens = r.choices.reduce(
      (sum, c) => sum + countTextTokens(c.message.content!) + countTextTokens((c.message as Reasoned).reasoning_content!),
      0,
    );
    expect(r.usage!.completion_tokens).toBe(tokens);

    const stream = await client.chat.completions.create({ model: MODEL, messages, n: 2, stream: true });
    const text = ['', ''];
    for await (const c of stream) for (const ch of c.choices) text[ch.index] += ch.delta.content ?? '';
    expect(text).toEqual([r.choices[0].message.content, r.choices[1].message.content]);
  });

  it('answers JSON that follows a json_schema', async () => {
    const schema = {
      type: 'object',
      properties: { title: { type: 'string' }, score: { type: 'integer', minimum: 1, maximum: 5 } },
      required: ['title', 'score'],
    };
    const r = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Rate it.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'rating', schema } },
    });
    const value = JSON.parse(r.choices[0].message.content!);
    expect(Object.keys(value)).toEqual(['title', 'score']);
    expect(value.score).toBeGreaterThanOrEqual(1);
    expect(value.score).toBeLessThanOrEqual(5);
  });

  it('rejects a reasoning_effort other than max, and a prompt over the context window', async () => {
    const low = await client.chat.completions
      .create({ model: MODEL, messages: [{ role: 'user', content: 'x' }], reasoning_effort: 'low' })
      .catch((e) => e);
    expect(low).toBeInstanceOf(OpenAI.BadRequestError);
    expect(low.param).toBe('reasoning_effort');
    await expect(
      client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }], reasoning_effort: 'max' as never }),
    ).resolves.toBeDefined();

    const huge = 'a '.repeat(1_048_576);
    const long = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: huge }] }).catch((e) => e);
    expect(long).toBeInstanceOf(OpenAI.BadRequestError);
    expect(long.code).toBe('context_length_exceeded');
  });
});
