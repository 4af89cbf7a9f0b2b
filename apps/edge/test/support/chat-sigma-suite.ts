/**
 * A chat-completions client (the official `openai` SDK) on a sigma model, which the gateway serves
 * over the Anthropic Messages protocol: the translation both ways, usage with cache reads billed at
 * the cached price, and a mid-stream upstream cut reaching the client as a stream error.
 */
import OpenAI from 'openai';
import { Admin, eventually } from './admin';
import type { Stack } from './stacks';
import { openaiFor, useStack, json } from './use-stack';

const MODEL = 'sigma-sonnet-4-6';

interface Logged {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}
type LedgerEntry = {
  request_id: string;
  cost_micros: number;
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  units: Record<string, unknown>;
};

export function chatSigmaSuite(start: () => Promise<Stack>) {
  let stack: Stack;
  let client: OpenAI;
  let admin: Admin;

  useStack(start, (s) => {
    stack = s;
    client = openaiFor(s);
    admin = new Admin(s);
  });
  afterEach(async () => {
    await fetch(`${stack.simUrl}/_sim/faults`, { method: 'DELETE' });
  });

  const upstream = async (): Promise<Logged> => (await json(await fetch(`${stack.simUrl}/_sim/requests?last=1`))).data[0];

  it('answers a non-streamed request through the Anthropic protocol upstream', async () => {
    const r = await client.chat.completions.create({
      model: MODEL,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello over messages' },
      ],
      max_tokens: 200,
      temperature: 1.8,
    });
    const sent = await upstream();
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.body).toEqual({
      model: MODEL,
      max_tokens: 200,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Say hello over messages' }],
      temperature: 1,
    });

    expect(r).toMatchObject({ object: 'chat.completion', model: MODEL });
    expect(r.id).toMatch(/^chatcmpl-\w/); // OpenAI's form, not the upstream's msg_…
    expect(r.choices[0].message.content?.length).toBeGreaterThan(0);
    expect(r.choices[0].finish_reason).toBe('stop');
    expect(r.usage).toMatchObject({ prompt_tokens: 3 + (3 + 3) + (3 + 4), prompt_tokens_details: { cached_tokens: 0 } });
    expect(r.usage!.total_tokens).toBe(r.usage!.prompt_tokens + r.usage!.completion_tokens);
  });

  it('streams the same answer in chat chunks, ending with the usage chunk', async () => {
    const request = { model: MODEL, messages: [{ role: 'user' as const, content: 'Describe a harbor at dawn' }] };
    const whole = await client.chat.completions.create(request);
    const stream = await client.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks[0].choices[0].delta).toMatchObject({ role: 'assistant' });
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks[0].id).toMatch(/^chatcmpl-\w/);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(whole.choices[0].message.content);
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(chunks.at(-1)!.usage).toEqual(whole.usage);
    expect((await upstream()).body).toMatchObject({ stream: true });
  });

  it('round-trips a tool call: tool_use upstream, tool_calls to the client, tool_result back', async () => {
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather for a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ];
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Lyon?' }];
    const first = await client.chat.completions.create({ model: MODEL, messages, tools, tool_choice: 'required' });
    expect((await upstream()).body).toMatchObject({
      tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
      tool_choice: { type: 'any' },
    });
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    const call = first.choices[0].message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(call.id).toMatch(/^toolu_/);
    expect(JSON.parse(call.function.arguments)).toHaveProperty('city');

    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: 'Cloudy and 17 degrees in Lyon' });
    const second = await client.chat.completions.create({ model: MODEL, messages, tools });
    const sent = await upstream();
    expect((sent.body.messages as unknown[]).at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: call.id, content: 'Cloudy and 17 degrees in Lyon' }],
    });
    expect(second.choices[0].finish_reason).toBe('stop');
    expect(second.choices[0].message.content).toContain('Cloudy and 17 degrees in Lyon');

    const streamed = await client.chat.completions
      .stream({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Nice?' }], tools })
      .finalChatCompletion();
    const streamedCall = streamed.choices[0].message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(streamedCall.function.name).toBe('get_weather');
    expect(JSON.parse(streamedCall.function.arguments)).toHaveProperty('city');
  });

  it('refuses a conversation with nothing for the model to answer with a 400 of its own naming messages, before any upstream call', async () => {
    await fetch(`${stack.simUrl}/_sim/requests`, { method: 'DELETE' });
    const system = { role: 'system' as const, content: 'empty-marker' };
    for (const messages of [[system], [system, { role: 'user' as const, content: '' }]]) {
      for (const stream of [false, true]) {
        const err = await client.chat.completions.create({ model: MODEL, messages, stream }).catch((e) => e);
        expect(err).toBeInstanceOf(OpenAI.BadRequestError);
        expect(err.error).toMatchObject({ param: 'messages', code: 'invalid_value' });
        // Not the upstream's "Invalid 'messages': messages must not be empty" about a field the client filled.
        expect(err.error.message).toBe(
          "Invalid 'messages': the model needs at least one user or assistant message with content besides the system instructions.",
        );
      }
    }
    expect(await (await fetch(`${stack.simUrl}/_sim/requests`)).text()).not.toContain('empty-marker');
  });

  /**
   * The ledger entries of a call that wrote `tokens` to the cache and of one that read them back, each
   * billed exactly at sigma-sonnet-4-6's prices: $3 per million input, $0.30 cache read, $3.75 cache
   * write, $15 output.
   */
  async function expectWriteThenReadBilled(
    accountId: string,
    first: OpenAI.Chat.Completions.ChatCompletion,
    second: OpenAI.Chat.Completions.ChatCompletion,
    tokens: number,
  ): Promise<void> {
    const entries = (await eventually(
      () => admin.usage(accountId),
      (e) => e.length === 2,
    )) as unknown as LedgerEntry[];
    const writing = entries.find((e) => e.cached_input_tokens === 0)!;
    expect(writing).toMatchObject({ input_tokens: first.usage!.prompt_tokens, output_tokens: first.usage!.completion_tokens });
    expect(writing.units).toMatchObject({ cache_write_input_tokens: tokens });
    expect(writing.cost_micros).toBe(
      Math.ceil(((writing.input_tokens - tokens) * 3_000_000 + tokens * 3_750_000 + writing.output_tokens * 15_000_000) / 1e6),
    );
    const reading = entries.find((e) => e.cached_input_tokens > 0)!;
    expect(reading).toMatchObject({
      input_tokens: second.usage!.prompt_tokens,
      cached_input_tokens: tokens,
      output_tokens: second.usage!.completion_tokens,
    });
    expect(reading.units).not.toHaveProperty('cache_write_input_tokens');
    expect(reading.cost_micros).toBe(
      Math.ceil(((reading.input_tokens - tokens) * 3_000_000 + tokens * 300_000 + reading.output_tokens * 15_000_000) / 1e6),
    );
  }

  it('reports cache writes as cache_write_tokens and cache reads as cached_tokens, and bills each at its price', async () => {
    const { accountId, key } = await admin.fundedKey(5);
    const keyed = new OpenAI({ baseURL: stack.baseURL, apiKey: key, maxRetries: 0 });
    // `cache_control` on a chat message marks a prompt-cache breakpoint (not in the SDK's types).
    const system = {
      role: 'system',
      content: 'house rules '.repeat(550),
      cache_control: { type: 'ephemeral' },
    } as unknown as OpenAI.Chat.Completions.ChatCompletionSystemMessageParam;
    const ask = (content: string) =>
      keyed.chat.completions.create({ model: MODEL, messages: [system, { role: 'user', content }], max_tokens: 50 });
    // The first call writes the system message (its 3 tokens of overhead included) to the cache, the second reads it.
    const first = await ask('first question');
    expect(first.usage!.prompt_tokens_details).toEqual({ cached_tokens: 0, cache_write_tokens: 1103 });
    const second = await ask('second question');
    expect(second.usage!.prompt_tokens_details).toEqual({ cached_tokens: 1103 });
    expect(second.usage!.prompt_tokens).toBe(3 + 3 + 1100 + 3 + 2);

    await expectWriteThenReadBilled(accountId, first, second, 1103);
  });

  it('takes cache_control on a content part (OpenRouter convention): the first request writes up to it, the next reads', async () => {
    const { accountId, key } = await admin.fundedKey(5);
    const keyed = new OpenAI({ baseURL: stack.baseURL, apiKey: key, maxRetries: 0 });
    // The marked part is followed by an unmarked one that differs per request (not in the SDK's types).
    const ask = (question: string) =>
      keyed.chat.completions.create({
        model: MODEL,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'field manual '.repeat(550), cache_control: { type: 'ephemeral' } },
              { type: 'text', text: question },
            ] as unknown as OpenAI.Chat.Completions.ChatCompletionContentPartText[],
          },
        ],
        max_tokens: 50,
      });
    const first = await ask('first question');
    const marked = (await upstream()).body.messages as Array<{ content: Array<Record<string, unknown>> }>;
    expect(marked[0].content.map((b) => b.cache_control)).toEqual([{ type: 'ephemeral' }, undefined]);
    // The user turn up to the marked part: its 1,100 words and 3 tokens of overhead.
    expect(first.usage!.prompt_tokens_details).toEqual({ cached_tokens: 0, cache_write_tokens: 1103 });
    const second = await ask('second question');
    expect(second.usage!.prompt_tokens_details).toEqual({ cached_tokens: 1103 });

    await expectWriteThenReadBilled(accountId, first, second, 1103);
  });

  it('bills one-hour cache writes (cache_control ttl "1h") at the one-hour price, answered or streamed', async () => {
    const { accountId, key } = await admin.fundedKey(5);
    const keyed = new OpenAI({ baseURL: stack.baseURL, apiKey: key, maxRetries: 0 });
    // The system message cached for an hour, the user message after it for five minutes (not in the SDK's types).
    const marked = (role: 'system' | 'user', content: string, ttl?: '1h') =>
      ({
        role,
        content,
        cache_control: { type: 'ephemeral', ...(ttl && { ttl }) },
      }) as unknown as OpenAI.Chat.Completions.ChatCompletionMessageParam;
    const answered = await keyed.chat.completions.create({
      model: MODEL,
      messages: [marked('system', 'standing orders '.repeat(550), '1h'), marked('user', 'briefing notes '.repeat(550))],
      max_tokens: 50,
    });
    // Each message writes its 1,100 words and 3 tokens of overhead; clients see the writes' total.
    expect(answered.usage!.prompt_tokens_details).toEqual({ cached_tokens: 0, cache_write_tokens: 2 * 1103 });
    const stream = await keyed.chat.completions.create({
      model: MODEL,
      messages: [marked('system', 'watch bill '.repeat(550), '1h'), { role: 'user', content: 'who has the watch?' }],
      max_tokens: 50,
      stream: true,
      stream_options: { include_usage: true },
    });
    let streamed: OpenAI.Completions.CompletionUsage | undefined;
    for await (const chunk of stream) streamed = chunk.usage ?? streamed;
    expect(streamed!.prompt_tokens_details).toEqual({ cached_tokens: 0, cache_write_tokens: 1103 });

    const entries = (await eventually(
      () => admin.usage(accountId),
      (e) => e.length === 2,
    )) as unknown as LedgerEntry[];
    // sigma-sonnet-4-6: $3 per million input, $3.75 per million written for five minutes, $6 for an hour, $15 output
    const both = entries.find((e) => e.input_tokens === answered.usage!.prompt_tokens)!;
    expect(both.units).toMatchObject({ cache_write_input_tokens: 2206, cache_write_1h_input_tokens: 1103 });
    expect(both.cost_micros).toBe(
      Math.ceil(((both.input_tokens - 2206) * 3_000_000 + 1103 * 3_750_000 + 1103 * 6_000_000 + both.output_tokens * 15_000_000) / 1e6),
    );
    const hourOnly = entries.find((e) => e.input_tokens === streamed!.prompt_tokens)!;
    expect(hourOnly.units).toMatchObject({ cache_write_input_tokens: 1103, cache_write_1h_input_tokens: 1103 });
    expect(hourOnly.cost_micros).toBe(
      Math.ceil(((hourOnly.input_tokens - 1103) * 3_000_000 + 1103 * 6_000_000 + hourOnly.output_tokens * 15_000_000) / 1e6),
    );
  });

  it('gives the client a stream error when the upstream stream is cut, and bills only what was produced', async () => {
    const { accountId, key } = await admin.fundedKey(5);
    const keyed = new OpenAI({ baseURL: stack.baseURL, apiKey: key, maxRetries: 0 });
    await fetch(`${stack.simUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { path: '/v1/messages', model: MODEL }, cut_after_chunks: 3, count: 1 }),
    });
    const stream = await keyed.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'A long tale, please' }],
      max_tokens: 400,
      stream: true,
    });
    let text = '';
    const err = await (async () => {
      for await (const c of stream) text += c.choices[0]?.delta?.content ?? '';
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as Error).message).toMatch(/upstream stream ended unexpectedly/);
    expect(text.length).toBeGreaterThan(0);

    const [entry] = (await eventually(
      () => admin.usage(accountId),
      (e) => e.length === 1,
    )) as unknown as LedgerEntry[];
    expect(entry.output_tokens).toBeGreaterThan(0);
    expect(entry.output_tokens).toBeLessThanOrEqual(9); // three deltas of one to three tokens
  });
}
