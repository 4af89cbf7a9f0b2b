/**
 * Gamma chat through the gateway with the official `openai` client: the gateway speaks Gemini
 * generateContent to the simulator (catalog default for the gamma family) and translates both ways.
 */
import OpenAI from 'openai';
import { Admin, eventually } from './admin';
import type { Stack } from './stacks';
import { openaiFor, useStack } from './use-stack';

const MODEL = 'gamma-2.5-flash';
type Reasoned = { reasoning_content?: string; content?: string | null };
// Request bodies the simulator logged; tests inspect them loosely.
type Logged = { path: string; headers: Record<string, string>; body: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

export function chatGammaSuite(start: () => Promise<Stack>) {
  let stack: Stack;
  let client: OpenAI;
  let admin: Admin;

  useStack(start, (s) => {
    stack = s;
    client = openaiFor(s);
    admin = new Admin(s);
  });

  const lastUpstream = async (): Promise<Logged> => {
    const log = (await (await fetch(`${stack.simUrl}/_sim/requests?last=1`)).json()) as { data: Logged[] };
    return log.data[0];
  };

  it('answers a non-streaming request, sent upstream as Gemini generateContent', async () => {
    const r = await client.chat.completions.create({
      model: MODEL,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Describe a harbour at dawn' },
      ],
      max_tokens: 200,
    });
    expect(r).toMatchObject({ object: 'chat.completion', model: MODEL });
    expect(r.id).toMatch(/^chatcmpl-/);
    expect(r.choices[0]).toMatchObject({ index: 0, finish_reason: 'stop', message: { role: 'assistant' } });
    expect(r.choices[0].message.content!.length).toBeGreaterThan(0);
    expect(r.usage!.total_tokens).toBe(r.usage!.prompt_tokens + r.usage!.completion_tokens);

    const sent = await lastUpstream();
    expect(sent.path).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(sent.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Describe a harbour at dawn' }] }],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: { maxOutputTokens: 200 },
    });
  });

  it('streams the same text as the non-streamed answer, with the usage chunk when asked', async () => {
    const request = { model: MODEL, messages: [{ role: 'user' as const, content: 'Describe a lighthouse at night' }] };
    const whole = await client.chat.completions.create(request);
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const c of await client.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } }))
      chunks.push(c);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe(whole.choices[0].message.content);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('stop');
    const last = chunks[chunks.length - 1];
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual(whole.usage);
    expect((await lastUpstream()).path).toBe(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`);
  });

  it('round-trips a tool call through functionCall / functionResponse', async () => {
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
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await client.chat.completions.create({ model: MODEL, messages, tools, tool_choice: 'required' });
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    const call = first.choices[0].message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(call.id).toMatch(/^call_/);
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });
    expect((await lastUpstream()).body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });

    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: '{"temp_c": 21, "sky": "clear"}' });
    const second = await client.chat.completions.create({ model: MODEL, messages, tools });
    expect(second.choices[0].finish_reason).toBe('stop');
    expect(second.choices[0].message.content).toMatch(/^The tool returned: /);
    const sent = await lastUpstream();
    expect(sent.body.contents.slice(1)).toEqual([
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp_c: 21, sky: 'clear' } } }] },
    ]);

    const streamed = await client.chat.completions
      .stream({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Rome?' }], tools })
      .finalChatCompletion();
    const streamedCall = streamed.choices[0].message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(streamedCall.function.name).toBe('get_weather');
    expect(JSON.parse(streamedCall.function.arguments)).toHaveProperty('city');
  });

  it('accepts video_url, audio_url and input_audio blocks and sends them as Gemini parts', async () => {
    const content = [
      { type: 'text', text: 'Summarise the clip and the recording.' },
      { type: 'video_url', video_url: { url: 'https://media.example.com/launch.mp4' } },
      { type: 'audio_url', audio_url: { url: 'https://media.example.com/keynote.flac' } },
      { type: 'input_audio', input_audio: { data: 'UklGRiQAAABXQVZF', format: 'wav' } },
    ];
    const r = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: content as never }] });
    expect(r.choices[0].message.content!.length).toBeGreaterThan(0);
    expect((await lastUpstream()).body.contents[0].parts).toEqual([
      { text: 'Summarise the clip and the recording.' },
      { fileData: { mimeType: 'video/mp4', fileUri: 'https://media.example.com/launch.mp4' } },
      { fileData: { mimeType: 'audio/flac', fileUri: 'https://media.example.com/keynote.flac' } },
      { inlineData: { mimeType: 'audio/wav', data: 'UklGRiQAAABXQVZF' } },
    ]);
  });

  it('refuses a media block on a model without media input, naming the block, before any upstream call', async () => {
    await fetch(`${stack.simUrl}/_sim/requests`, { method: 'DELETE' });
    const content = [
      { type: 'text', text: 'media-marker' },
      { type: 'video_url', video_url: { url: 'https://media.example.com/a.mp4' } },
    ];
    const err = await client.chat.completions
      .create({ model: 'sigma-sonnet-4-6', messages: [{ role: 'user', content: content as never }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.param).toBe('messages[0].content[1]');
    expect(err.message).toContain('video_url');
    expect(await (await fetch(`${stack.simUrl}/_sim/requests`)).text()).not.toContain('media-marker');
  });

  it('refuses a conversation with nothing for Gemini to answer with a 400 of its own naming messages, before any upstream call', async () => {
    await fetch(`${stack.simUrl}/_sim/requests`, { method: 'DELETE' });
    const system = { role: 'system' as const, content: 'empty-marker' };
    for (const messages of [
      [system],
      [system, { role: 'user' as const, content: '' }],
      [system, { role: 'user' as const, content: [] }],
      [system, { role: 'user' as const, content: [{ type: 'text' as const, text: '' }] }],
    ]) {
      const err = await client.chat.completions.create({ model: MODEL, messages }).catch((e) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect(err.error).toMatchObject({ param: 'messages', code: 'invalid_value' });
      expect(err.error.message).toBe(
        "Invalid 'messages': the model needs at least one user or assistant message with content besides the system instructions.",
      );
    }
    const streamed = await client.chat.completions.create({ model: MODEL, messages: [system], stream: true }).catch((e) => e);
    expect(streamed).toBeInstanceOf(OpenAI.BadRequestError);
    expect(streamed.error).toMatchObject({ param: 'messages' });
    expect(await (await fetch(`${stack.simUrl}/_sim/requests`)).text()).not.toContain('empty-marker');
  });

  it('shows thoughts as reasoning_content when reasoning_effort is set, billed as output', async () => {
    const messages = [{ role: 'user' as const, content: 'Why is the sea salty?' }];
    const r = await client.chat.completions.create({ model: MODEL, messages, reasoning_effort: 'low' });
    const message = r.choices[0].message as Reasoned;
    expect(message.reasoning_content!.length).toBeGreaterThan(0);
    const reasoning = r.usage!.completion_tokens_details!.reasoning_tokens!;
    expect(reasoning).toBeGreaterThan(0);
    expect((await lastUpstream()).body.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 1024, includeThoughts: true });

    let streamedReasoning = '';
    for await (const c of await client.chat.completions.create({ model: MODEL, messages, reasoning_effort: 'low', stream: true })) {
      streamedReasoning += (c.choices[0]?.delta as Reasoned | undefined)?.reasoning_content ?? '';
    }
    expect(streamedReasoning).toBe(message.reasoning_content);
  });

  it('reports implicit caching of a long repeated prefix and bills it at the cached price', async () => {
    const { accountId, key } = await admin.fundedKey(5);
    const keyed = new OpenAI({ baseURL: stack.baseURL, apiKey: key, maxRetries: 0 });
    const doc = `${'tide table harbor '.repeat(500)}end`;
    const ask = (q: string) =>
      keyed.chat.completions.create({
        model: MODEL,
        messages: [
          { role: 'system', content: doc },
          { role: 'user', content: q },
        ],
      });
    const cold = await ask('first question');
    const warm = await ask('second question');
    expect(cold.usage!.prompt_tokens_details?.cached_tokens ?? 0).toBe(0);
    const cached = warm.usage!.prompt_tokens_details!.cached_tokens!;
    expect(cached).toBeGreaterThan(1024);
    const entries = await eventually(
      () =>
        admin.call<Array<{ cached_input_tokens: number; input_tokens: number; output_tokens: number; cost_micros: number }>>(
          'GET',
          `/accounts/${accountId}/usage`,
        ),
      (r) => r.body.length === 2,
    );
    const warmEntry = entries.body.find((e) => e.cached_input_tokens > 0)!;
    expect(warmEntry).toMatchObject({
      cached_input_tokens: cached,
      input_tokens: warm.usage!.prompt_tokens,
      output_tokens: warm.usage!.completion_tokens,
    });
    // gamma-2.5-flash: $0.30 input, $0.03 cached input, $2.50 output per Mtok.
    const u = warm.usage!;
    expect(warmEntry.cost_micros).toBe(
      Math.ceil(((u.prompt_tokens - cached) * 300_000 + cached * 30_000 + u.completion_tokens * 2_500_000) / 1e6),
    );
  });
}
