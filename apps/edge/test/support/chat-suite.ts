/**
 * POST /v1/chat/completions end to end with the official `openai` client, against any deployment.
 * The same suite runs on the standalone process and on the distributed stack.
 */
import { gzipSync } from 'node:zlib';
import OpenAI from 'openai';
import WebSocket from 'ws';
import { metricSum, scrapeMetrics } from '@unigate/testing';
import { Admin, eventually } from './admin';
import type { Stack } from './stacks';
import { openaiFor, useStack, json } from './use-stack';

const MODEL = 'sigma-sonnet-4-6';

export function chatSuite(start: () => Promise<Stack>) {
  let stack: Stack;
  let client: OpenAI;
  let admin: Admin;

  useStack(start, (s) => {
    stack = s;
    client = openaiFor(s);
    admin = new Admin(s);
  });

  describe('chat completions', () => {
    it('answers a non-streaming request in the chat.completion shape with usage and a request id', async () => {
      const { data, response } = await client.chat.completions
        .create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello to the gateway' }], temperature: 0 })
        .withResponse();
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
      expect(Number(response.headers.get('x-unigate-overhead-ms'))).toBeGreaterThanOrEqual(0);
      expect(data.object).toBe('chat.completion');
      expect(data.model).toBe(MODEL);
      expect(typeof data.id).toBe('string');
      expect(Number.isInteger(data.created)).toBe(true);
      expect(data.choices[0].message.role).toBe('assistant');
      expect(data.choices[0].message.content?.length).toBeGreaterThan(0);
      expect(data.choices[0].finish_reason).toBe('stop');
      expect(data.usage!.prompt_tokens).toBeGreaterThan(0);
      expect(data.usage!.completion_tokens).toBeGreaterThan(0);
      expect(data.usage!.total_tokens).toBe(data.usage!.prompt_tokens + data.usage!.completion_tokens);
    });

    it("reports what the gateway adds (the overhead header's figures) and how long the upstream took, by model and channel, as histograms", async () => {
      const route = { route: '/v1/chat/completions' };
      const upstream = { model: MODEL, channel: 'sim' };
      const read = async () => {
        // In distributed mode the chat service makes the upstream call, and the edge measures itself.
        const [edge, service] = await Promise.all([
          scrapeMetrics(stack.origin, stack.adminToken),
          scrapeMetrics(stack.originOf('chat'), stack.adminToken),
        ]);
        return {
          overheadCount: metricSum(edge, 'unigate_overhead_seconds_count', route),
          overheadSum: metricSum(edge, 'unigate_overhead_seconds_sum', route),
          upstreamCount: metricSum(service, 'unigate_upstream_response_seconds_count', upstream),
          upstreamUnderHalfSecond: metricSum(service, 'unigate_upstream_response_seconds_bucket', { ...upstream, le: '0.5' }),
        };
      };
      const before = await read();
      // The upstream holds the next answer 500 ms; the stream after it starts at once.
      await fetch(`${stack.simUrl}/_sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ match: { path: '/v1/messages', model: MODEL }, latency_ms: 500, count: 1 }),
      });
      const overheads: number[] = [];
      for (const stream of [false, true]) {
        const res = await fetch(`${stack.baseURL}/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: MODEL, stream, messages: [{ role: 'user', content: 'Time me' }] }),
        });
        expect(res.status).toBe(200);
        await res.text();
        overheads.push(Number(res.headers.get('x-unigate-overhead-ms')));
      }
      const after = await read();
      expect(after.overheadCount - before.overheadCount).toBe(2);
      // The headers' figures (two decimals of a millisecond), not the 500 ms spent waiting on the upstream.
      expect(Math.abs((after.overheadSum - before.overheadSum) * 1000 - (overheads[0] + overheads[1]))).toBeLessThan(0.02);
      expect(after.upstreamCount - before.upstreamCount).toBe(2);
      // The held answer took over 500 ms; the stream's first event came sooner.
      expect(after.upstreamUnderHalfSecond - before.upstreamUnderHalfSecond).toBe(1);
    });

    it('streams the same text as the non-streamed answer, ending with a usage chunk when asked', async () => {
      const request = { model: MODEL, messages: [{ role: 'user' as const, content: 'Describe a lighthouse at night' }], temperature: 0 };
      const whole = await client.chat.completions.create(request);
      const stream = await client.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } });
      let text = '';
      const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
      for await (const chunk of stream) {
        chunks.push(chunk);
        text += chunk.choices[0]?.delta?.content ?? '';
      }
      expect(text).toBe(whole.choices[0].message.content);
      expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
      expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === MODEL)).toBe(true);
      expect(chunks[0].choices[0].delta.role).toBe('assistant');
      const finish = chunks.find((c) => c.choices[0]?.finish_reason);
      expect(finish?.choices[0].finish_reason).toBe('stop');
      const last = chunks[chunks.length - 1];
      expect(last.choices).toEqual([]);
      expect(last.usage).toEqual(whole.usage);
    });

    it('reports the gateway overhead without the upstream time, for answers and streams', async () => {
      await fetch(`${stack.simUrl}/_sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ match: { model: MODEL }, latency_ms: 1500, count: 2 }),
      });
      for (const stream of [false, true]) {
        const started = performance.now();
        const res = await fetch(`${stack.baseURL}/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'slow upstream' }], stream }),
        });
        await res.text();
        expect(res.status).toBe(200);
        expect(performance.now() - started).toBeGreaterThanOrEqual(1500);
        const overhead = Number(res.headers.get('x-unigate-overhead-ms'));
        expect(overhead).toBeGreaterThanOrEqual(0);
        expect(overhead).toBeLessThan(1000);
      }
    });

    it("an upstream limiting the gateway (429 on every channel) is a 503 with the upstream's Retry-After", async () => {
      // Not the client's own limit (429 Shape A): its retry after the upstream's wait can succeed.
      await fetch(`${stack.simUrl}/_sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ match: { model: MODEL }, status: 429, retry_after: '7' }),
      });
      try {
        for (const stream of [false, true]) {
          const res = await fetch(`${stack.baseURL}/chat/completions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'busy upstream' }], stream }),
          });
          expect(res.status).toBe(503);
          expect(res.headers.get('retry-after')).toBe('7');
          expect(res.headers.get('x-should-retry')).toBe('true');
          expect(await res.json()).toMatchObject({ error: { type: 'upstream_error', code: 'upstream_error' } });
        }
      } finally {
        await fetch(`${stack.simUrl}/_sim/faults`, { method: 'DELETE' });
      }
    });

    it('does not send a usage chunk unless include_usage is set', async () => {
      const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], stream: true });
      const chunks = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(chunks.length).toBeGreaterThan(1);
      expect(chunks.every((c) => c.choices.length === 1 && !c.usage)).toBe(true);
    });

    it('round-trips a tool call: tool_calls out, tool result in, a text answer back', async () => {
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
      const first = await client.chat.completions.create({ model: MODEL, messages, tools, tool_choice: 'auto' });
      expect(first.choices[0].finish_reason).toBe('tool_calls');
      const call = first.choices[0].message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
      expect(call.function.name).toBe('get_weather');
      expect(JSON.parse(call.function.arguments)).toHaveProperty('city');

      messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: '{"temp_c": 21, "sky": "clear"}' });
      const second = await client.chat.completions.create({ model: MODEL, messages, tools });
      expect(second.choices[0].finish_reason).toBe('stop');
      expect(second.choices[0].message.content?.length).toBeGreaterThan(0);
    });

    it('streams tool calls as fragments the SDK reassembles', async () => {
      const runner = client.chat.completions.stream({
        model: MODEL,
        messages: [{ role: 'user', content: 'Weather in Rome?' }],
        tools: [
          {
            type: 'function',
            function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
          },
        ],
      });
      const final = await runner.finalChatCompletion();
      const call = final.choices[0].message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
      expect(call.function.name).toBe('get_weather');
      expect(JSON.parse(call.function.arguments)).toHaveProperty('city');
    });

    it('passes response_format json_object through: the answer parses as JSON', async () => {
      const r = await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Give me a JSON object describing a cat' }],
        response_format: { type: 'json_object' },
      });
      expect(() => JSON.parse(r.choices[0].message.content!)).not.toThrow();
    });

    it('honours max_tokens: finish_reason length and no more tokens than asked', async () => {
      const r = await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Tell me a long story' }],
        max_tokens: 3,
      });
      expect(r.choices[0].finish_reason).toBe('length');
      expect(r.usage!.completion_tokens).toBeLessThanOrEqual(3);
    });
  });

  describe('validation (400 invalid_request_error naming the field)', () => {
    const base = { model: MODEL, messages: [{ role: 'user', content: 'hi' }] };
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['temperature above 2', { ...base, temperature: 2.5 }, 'temperature'],
      ['temperature below 0', { ...base, temperature: -0.1 }, 'temperature'],
      ['top_p above 1', { ...base, top_p: 1.01 }, 'top_p'],
      ['top_p below 0', { ...base, top_p: -1 }, 'top_p'],
      ['more than 4 stop sequences', { ...base, stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
      ['presence_penalty above 2', { ...base, presence_penalty: 2.5 }, 'presence_penalty'],
      ['frequency_penalty below -2', { ...base, frequency_penalty: -3 }, 'frequency_penalty'],
      ['unknown role', { ...base, messages: [{ role: 'robot', content: 'hi' }] }, 'messages[0].role'],
      ['missing content', { ...base, messages: [{ role: 'user' }] }, 'messages[0].content'],
      ['content of the wrong type', { ...base, messages: [{ role: 'user', content: 42 }] }, 'messages[0].content'],
      ['unknown content block', { ...base, messages: [{ role: 'user', content: [{ type: 'audio', data: 'x' }] }] }, 'messages[0].content'],
      [
        'image block without url',
        { ...base, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] },
        'messages[0].content',
      ],
      [
        'tool message without tool_call_id',
        {
          ...base,
          messages: [
            { role: 'user', content: 'hi' },
            { role: 'tool', content: 'x' },
          ],
        },
        'messages[1].tool_call_id',
      ],
      ['max_tokens zero', { ...base, max_tokens: 0 }, 'max_tokens'],
      ['max_tokens negative', { ...base, max_tokens: -5 }, 'max_tokens'],
      ['max_tokens not an integer', { ...base, max_tokens: 1.5 }, 'max_tokens'],
      ['max_tokens a string', { ...base, max_tokens: '10' }, 'max_tokens'],
      ['messages missing', { model: MODEL }, 'messages'],
      ['messages empty', { model: MODEL, messages: [] }, 'messages'],
      ['model missing', { messages: base.messages }, 'model'],
      ['stream not a boolean', { ...base, stream: 'yes' }, 'stream'],
    ];

    it.each(cases)('rejects %s', async (_label, body, field) => {
      const err = await client.chat.completions.create(body as never).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      const e = err as InstanceType<typeof OpenAI.BadRequestError>;
      expect(e.status).toBe(400);
      expect(e.type).toBe('invalid_request_error');
      expect(e.param?.startsWith(field)).toBe(true);
      expect(e.message).toContain(field);
    });

    it('says what is wrong in words: a tool_choice without its function name, the kind of a wrong value', async () => {
      const refusal = async (body: Record<string, unknown>) => {
        const err = await client.chat.completions.create(body as never).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(OpenAI.BadRequestError);
        return (err as InstanceType<typeof OpenAI.BadRequestError>).error as { message: string; param: string | null };
      };
      for (const model of [MODEL, 'gamma-2.5-flash', 'omega-k3']) {
        expect(await refusal({ ...base, model, tool_choice: { type: 'function', function: {} } })).toMatchObject({
          param: 'tool_choice.function.name',
          message: "Invalid 'tool_choice.function.name': tool_choice.function.name is required",
        });
        const noFunction = await refusal({ ...base, model, tool_choice: { type: 'function' } });
        expect(noFunction.param).toBe('tool_choice.function');
        expect(noFunction.message).toMatch(
          /^Invalid 'tool_choice\.function': tool_choice\.function is required: \{"name": \.\.\.\} naming/,
        );
      }
      expect(await refusal({ ...base, messages: [{ role: 'user', content: 5 }] })).toMatchObject({
        param: 'messages[0].content',
        message: "Invalid 'messages[0].content': expected string, array or null, got number",
      });
      expect(await refusal({ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 5 }] }] })).toMatchObject({
        param: 'messages[0].content[0].text',
        message: "Invalid 'messages[0].content[0].text': expected string, got number",
      });
    });

    it('answers an empty or blank body with 400 saying so', async () => {
      for (const body of ['', '  \n']) {
        const res = await fetch(`${stack.baseURL}/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
          body,
        });
        expect(res.status).toBe(400);
        expect((await json(res)).error).toMatchObject({
          type: 'invalid_request_error',
          message: 'The request body is empty: it must be a JSON object.',
          param: null,
        });
      }
    });

    it('refuses a conversation of system messages alone on the models whose upstream needs more, before any upstream call; omega-k3 takes it', async () => {
      await fetch(`${stack.simUrl}/_sim/requests`, { method: 'DELETE' });
      const messages = [{ role: 'system' as const, content: 'system-only-marker' }];
      for (const model of ['gamma-2.5-flash', MODEL]) {
        const err = await client.chat.completions.create({ model, messages }).catch((e) => e);
        expect(err).toBeInstanceOf(OpenAI.BadRequestError);
        expect(err.error).toMatchObject({ type: 'invalid_request_error', param: 'messages' });
        expect(err.error.message).toBe(
          "Invalid 'messages': the model needs at least one user or assistant message with content besides the system instructions.",
        );
      }
      expect(await (await fetch(`${stack.simUrl}/_sim/requests`)).text()).not.toContain('system-only-marker');
      const r = await client.chat.completions.create({ model: 'omega-k3', messages });
      expect(r.choices[0].message.content!.length).toBeGreaterThan(0);
    });

    it('accepts text and image_url blocks and the boundary values', async () => {
      const r = await client.chat.completions.create({
        model: MODEL,
        temperature: 2,
        top_p: 0,
        presence_penalty: -2,
        frequency_penalty: 2,
        stop: ['x1', 'x2', 'x3', 'x4'],
        messages: [
          { role: 'system', content: 'Be brief', name: 'ops' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is here?' },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            ],
          },
        ],
      });
      expect(r.choices[0].message.content?.length).toBeGreaterThan(0);
    });

    it('takes null for an optional field the SDK lets be null, as if it were left out, on every chat family', async () => {
      for (const model of ['sigma-sonnet-4-6', 'gamma-2.5-flash', 'omega-k3']) {
        const r = await client.chat.completions.create({
          model,
          temperature: null,
          top_p: null,
          max_tokens: null,
          max_completion_tokens: null,
          n: null,
          stream: null,
          presence_penalty: null,
          frequency_penalty: null,
          seed: null,
          reasoning_effort: null,
          prompt_cache_key: null,
          messages: [
            { role: 'user', content: 'hi' },
            // An answer echoed back as it came: "tool_calls": null, as many upstreams write it.
            { role: 'assistant', content: 'hello', refusal: null, tool_calls: null, name: null } as never,
            { role: 'user', content: 'again' },
          ],
        });
        expect([model, r.object, r.choices[0].message.content?.length]).toEqual([model, 'chat.completion', expect.any(Number)]);
      }
    });

    it('answers malformed JSON with 400 invalid_json in Shape B', async () => {
      const res = await fetch(`${stack.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
        body: '{"model": "sigma-sonnet-4-6", "messages": [',
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
      const body = await json(res);
      expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });
    });

    it('reads a gzip-encoded body (a coding agent compressing its session); refuses zstd with 415 and Accept-Encoding', async () => {
      const body = JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'compressed hello' }] });
      const send = (encoded: Buffer, coding: string) =>
        fetch(`${stack.baseURL}/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json', 'content-encoding': coding },
          body: encoded,
        });
      const ok = await send(gzipSync(body), 'gzip');
      expect(ok.status).toBe(200);
      expect((await json(ok)).choices[0].message.content.length).toBeGreaterThan(0);
      const refused = await send(Buffer.from(body), 'zstd');
      expect(refused.status).toBe(415);
      expect(refused.headers.get('accept-encoding')).toBe('gzip, deflate, br');
      expect((await json(refused)).error).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_content_encoding' });
    });

    // Closing the connection at once after the 413 reset it under the SDK's upload: it reported
    // "Connection error." (EPIPE) and, with its default retries, sent the body again.
    it('answers a body over the 32 MiB limit with a 413 the openai SDK reads, however much of it is still coming', async () => {
      for (const mb of [40, 100]) {
        const err = await client.chat.completions
          .create({ model: MODEL, messages: [{ role: 'user', content: 'x'.repeat(mb * 1e6) }] })
          .catch((e: unknown) => e);
        expect([mb, err]).toEqual([mb, expect.any(OpenAI.APIError)]);
        expect([mb, (err as InstanceType<typeof OpenAI.APIError>).status, (err as { code?: string }).code]).toEqual([
          mb,
          413,
          'request_too_large',
        ]);
      }
      // The connection the refused body came on serves the next request.
      expect(
        (await client.chat.completions.create({ model: MODEL, max_tokens: 4, messages: [{ role: 'user', content: 'hi' }] })).id,
      ).toBeTruthy();
    });

    it('answers an unknown model with 404 model_not_found', async () => {
      const err = await client.chat.completions
        .create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] })
        .catch((e) => e);
      expect(err).toBeInstanceOf(OpenAI.NotFoundError);
      expect(err.code).toBe('model_not_found');
    });
  });

  describe('keys and balance', () => {
    it('answers a missing key with 401 Shape B', async () => {
      const res = await fetch(`${stack.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(res.status).toBe(401);
      expect((await json(res)).error).toMatchObject({ code: 'invalid_api_key', type: 'invalid_request_error' });
    });

    it('answers a wrong key with 401 through the SDK', async () => {
      const bad = new OpenAI({ baseURL: stack.baseURL, apiKey: 'sk-not-a-real-key-000000000000000000000000000000', maxRetries: 0 });
      const err = await bad.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }).catch((e) => e);
      expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(err.code).toBe('invalid_api_key');
    });

    it('refuses 429, without a lookup, keys it has not cached from an address that sent 100 unknown keys; its known keys and other addresses go on', async () => {
      // Seen from addresses of a documentation range, through the loopback proxy the edge trusts by default.
      const from = (address: string, key: string) =>
        fetch(`${stack.baseURL}/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-forwarded-for': address },
          body: JSON.stringify({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
        });
      const flooding = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
      const known = (await from(flooding, stack.apiKey)).status;
      expect(known).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 100; i++) statuses.push((await from(flooding, `sk-made-up-${i}-${Math.random().toString(36).slice(2)}`)).status);
      expect(new Set(statuses)).toEqual(new Set([401]));
      const refused = await from(flooding, 'sk-made-up-one-more');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await json(refused)).toMatchObject({ code: 'Throttling.RateQuota', message: expect.stringMatching(/unknown API keys/) });
      // A real key this edge has not cached yet waits out the window too; the one it knows does not.
      const { key: fresh } = await admin.fundedKey(1);
      expect((await from(flooding, fresh)).status).toBe(429);
      expect((await from(flooding, stack.apiKey)).status).toBe(200);
      expect((await from('198.51.100.7', fresh)).status).toBe(200);
      // The Responses API's WebSocket handshake counts the same address the same way.
      const ws = new WebSocket(`${stack.baseURL.replace(/^http/, 'ws')}/responses`, {
        headers: { authorization: 'Bearer sk-made-up-over-websocket', 'x-forwarded-for': flooding },
      });
      const status = await new Promise<number>((resolve) => ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
      expect(status).toBe(429);
    });

    it('answers 402 with a message-only body before any upstream call when the balance is short', async () => {
      const { key } = await admin.fundedKey(0.000001);
      await fetch(`${stack.simUrl}/_sim/requests`, { method: 'DELETE' });
      const marker = `marker-${Date.now()}`;
      const res = await fetch(`${stack.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: marker }], max_tokens: 1000 }),
      });
      expect(res.status).toBe(402);
      const body = await json(res);
      expect(Object.keys(body)).toEqual(['error']);
      expect(Object.keys(body.error)).toEqual(['message']);
      expect(body.error.message).toMatch(/balance/i);
      const upstream = await (await fetch(`${stack.simUrl}/_sim/requests`)).text();
      expect(upstream).not.toContain(marker);
    });

    it('charges the measured usage into the ledger and the balance drops by exactly that', async () => {
      const { accountId, key } = await admin.fundedKey(5);
      const keyed = new OpenAI({ baseURL: stack.baseURL, apiKey: key, maxRetries: 0 });
      const { response } = await keyed.chat.completions
        .create({ model: MODEL, messages: [{ role: 'user', content: 'Charge me' }] })
        .withResponse();
      const requestId = response.headers.get('x-request-id');
      const entries = await eventually(
        () => admin.usage(accountId),
        (e) => e.length === 1,
      );
      expect(entries[0].request_id).toBe(requestId);
      expect(entries[0].cost_micros).toBeGreaterThan(0);
      const account = await eventually(
        () => admin.account(accountId),
        (a) => a.reserved_usd === 0,
      );
      expect(Math.round((5 - account.balance_usd) * 1e6)).toBe(entries[0].cost_micros);
    });

    it('limits a key to its models: /v1/models lists only those (with family and kind), others answer 403 (404 to models.retrieve)', async () => {
      const all = await client.models.list();
      expect(all.data.length).toBeGreaterThan(20);
      const { key } = await admin.fundedKey(1, { models: [MODEL, 'gamma-2.5-flash'] });
      const limited = new OpenAI({ baseURL: stack.baseURL, apiKey: key, maxRetries: 0 });
      const listed = await limited.models.list();
      expect(listed.data.map((m) => m.id).sort()).toEqual(['gamma-2.5-flash', MODEL].sort());
      expect(listed.data.find((m) => m.id === MODEL)).toMatchObject({ object: 'model', family: 'sigma', kind: 'chat' });
      // models.retrieve: the same object as the list's entry; a model the key may not use is as unknown as one that does not exist.
      expect(await limited.models.retrieve(MODEL)).toEqual(listed.data.find((m) => m.id === MODEL));
      expect(await client.models.retrieve('sigma-opus-4-7')).toMatchObject({ id: 'sigma-opus-4-7', object: 'model', kind: 'chat' });
      // An alias names its model, and hides it from a key that may not use it like the model's own id.
      expect(await client.models.retrieve('claude-opus-5-5')).toMatchObject({ id: 'sigma-opus-4-7', object: 'model' });
      for (const hidden of ['sigma-opus-4-7', 'claude-opus-5-5', 'no-such-model-1']) {
        const missing = await limited.models.retrieve(hidden).catch((e) => e);
        expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
        expect(missing.error).toMatchObject({ code: 'model_not_found', param: 'model' });
      }
      const ok = await limited.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
      expect(ok.choices.length).toBe(1);
      const refusals = async () =>
        metricSum(await scrapeMetrics(stack.origin, stack.adminToken), 'unigate_rejections_total', {
          model: 'sigma-opus-4-7',
          reason: '403',
        });
      const before = await refusals();
      const denied = await limited.chat.completions
        .create({ model: 'sigma-opus-4-7', messages: [{ role: 'user', content: 'hi' }] })
        .catch((e) => e);
      expect(denied).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect(denied.code).toBe('model_not_allowed');
      // Refused after the model was resolved: counted under it, not under "other".
      expect(await refusals()).toBe(before + 1);
    });

    it('lets the operator set an account tier at creation or later (PATCH), refusing unknown tiers', async () => {
      const made = await admin.call<{ id: string }>('POST', '/accounts', { name: 'tiered', credit_usd: 1, tier: 'free' });
      expect(made.status).toBe(201);
      const patched = await admin.call('PATCH', `/accounts/${made.body.id}`, { tier: 'paid' });
      expect(patched).toEqual({ status: 200, body: { id: made.body.id, tier: 'paid' } });
      const bad = await admin.call<{ error: { code: string; param: string } }>('PATCH', `/accounts/${made.body.id}`, { tier: 'gold' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ type: 'invalid_request_error', param: 'tier' });
      expect((await admin.call('PATCH', `/accounts/${made.body.id}`, { name: 'renamed' })).status).toBe(400);
      expect((await admin.call('POST', '/accounts', { name: 'x', tier: 'gold' })).status).toBe(400);
      expect((await admin.call('PATCH', '/accounts/00000000-0000-4000-8000-000000000000', { tier: 'free' })).status).toBe(404);
    });

    it('rejects admin calls without the admin token', async () => {
      const res = await fetch(`${stack.origin}/admin/v1/accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.apiKey}` },
        body: '{}',
      });
      expect(res.status).toBe(401);
    });
  });
}
