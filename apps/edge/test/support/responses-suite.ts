/**
 * POST /v1/responses end to end with the official `openai` client (`responses.create` and
 * `responses.stream`): natively on a model routed to a Responses upstream (a second simulator,
 * configured through UNIGATE_CONFIG), translated on the sigma, gamma and omega models — the typed
 * event sequence, tool calls through the loop, stored responses continued with previous_response_id
 * and scoped to their account, billing, and errors in Shape B.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator } from '@unigate/upstream-sim';
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import WebSocket from 'ws';
import { Admin, eventually } from './admin';
import { RESPONSE_END_TYPES } from './responses-events';
import { SimControl } from './sim-control';
import { readSseEvents } from './sse-events';
import type { Stack } from './stacks';
import { json, openaiFor, type Loose } from './use-stack';

type Sim = Awaited<ReturnType<typeof createSimulator>>;

/** A chat model reached only over the Responses API (UNIGATE_CONFIG below). */
export const NATIVE_RESPONSES_MODEL = 'delta-chat-sim';
const TRANSLATED = ['sigma-sonnet-4-6', 'gamma-2.5-flash', 'omega-k3'];

const EXEC: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'exec_command',
  description: 'Runs a command in a PTY, returning its output.',
  strict: false,
  parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'], additionalProperties: false },
};

const functionCall = (res: OpenAI.Responses.Response) =>
  res.output.find((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === 'function_call');

export function responsesSuite(start: (env: Record<string, string>) => Promise<Stack>) {
  let stack: Stack;
  let native: Sim;
  let client: OpenAI;

  beforeAll(async () => {
    native = await createSimulator({ port: 0 });
    const config = join(mkdtempSync(join(tmpdir(), 'unigate-responses-')), 'unigate.yaml');
    writeFileSync(
      config,
      [
        'providers:',
        `  - { name: responses-native, protocol: openai-responses, base_url: "${native.url}/v1" }`,
        'models:',
        `  ${NATIVE_RESPONSES_MODEL}:`,
        '    family: delta',
        '    kind: chat',
        '    context_window: 400000',
        '    max_output_tokens: 128000',
        '    prices: { input_per_mtok: 1250000, cached_input_per_mtok: 125000, output_per_mtok: 10000000 }',
        '    channels:',
        '      - { provider: responses-native, upstream_model: sim-resp }',
      ].join('\n'),
    );
    stack = await start({ UNIGATE_CONFIG: config });
    client = openaiFor(stack);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await native?.close();
  });

  describe.each([NATIVE_RESPONSES_MODEL, ...TRANSLATED])('%s', (model) => {
    it('answers responses.create with a message, status completed, its model and usage', async () => {
      const res = await client.responses.create({ model, input: 'Describe a quiet harbor' });
      expect(res).toMatchObject({ object: 'response', status: 'completed', model });
      expect(res.id).toMatch(/^resp_/);
      expect(res.output_text.length).toBeGreaterThan(0);
      expect(res.usage!.input_tokens).toBeGreaterThan(0);
      expect(res.usage!.output_tokens).toBeGreaterThan(0);
    });

    it('streams the typed event sequence through responses.stream, ending with the whole answer', async () => {
      const request = { model, input: 'Describe a quiet harbor at dawn' };
      const whole = await client.responses.create(request);
      const stream = client.responses.stream(request);
      const events: OpenAI.Responses.ResponseStreamEvent[] = [];
      for await (const ev of stream) events.push(ev);
      const final = await stream.finalResponse();
      expect(final.output_text).toBe(whole.output_text);
      const types = events.map((e) => e.type);
      expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
      expect(types.at(-1)).toBe('response.completed');
      for (const t of [
        'response.output_item.added',
        'response.content_part.added',
        'response.output_text.delta',
        'response.output_text.done',
      ]) {
        expect(types).toContain(t);
      }
      expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
      expect(final.usage!.output_tokens).toBe(whole.usage!.output_tokens);
    });

    it('calls a tool, takes its output and answers quoting it (the whole conversation sent, store: false)', async () => {
      const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Run `ls /srv` and tell me what is there.' }];
      const first = await client.responses.stream({ model, input, tools: [EXEC], store: false }).finalResponse();
      const call = functionCall(first)!;
      expect(call).toMatchObject({ name: 'exec_command', status: 'completed' });
      expect(JSON.parse(call.arguments)).toEqual({ cmd: 'ls /srv' });
      const second = await client.responses.create({
        model,
        tools: [EXEC],
        store: false,
        input: [
          ...input,
          ...(first.output as OpenAI.Responses.ResponseInputItem[]),
          { type: 'function_call_output', call_id: call.call_id, output: 'backups\nwww' },
        ],
      });
      expect(second.output_text).toContain('backups www');
    });

    it('continues a stored response with previous_response_id', async () => {
      const first = await client.responses.create({ model, input: 'Run `uname -a` please.', tools: [EXEC] });
      const call = functionCall(first)!;
      const second = await client.responses.create({
        model,
        tools: [EXEC],
        previous_response_id: first.id,
        input: [{ type: 'function_call_output', call_id: call.call_id, output: 'Linux sim-host 6.1' }],
      });
      expect(second.previous_response_id).toBe(first.id);
      expect(second.output_text).toContain('Linux sim-host 6.1');
    });
  });

  it('serves chat completions and messages on the Responses-only model too, translated', async () => {
    const chat = await client.chat.completions.create({
      model: NATIVE_RESPONSES_MODEL,
      messages: [{ role: 'user', content: 'Describe a quiet harbor' }],
    });
    expect(chat.choices[0].message.content?.length).toBeGreaterThan(0);
    expect(chat.usage!.completion_tokens).toBeGreaterThan(0);
    const res = await fetch(`${stack.origin}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': stack.apiKey, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: NATIVE_RESPONSES_MODEL,
        max_tokens: 200,
        messages: [{ role: 'user', content: 'Describe a quiet harbor' }],
      }),
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ type: 'message', model: NATIVE_RESPONSES_MODEL, stop_reason: 'end_turn' });
  });

  it('drops hosted tools it cannot run instead of failing, and shows reasoning summaries when asked', async () => {
    const res = await client.responses.create({
      model: 'omega-k3',
      input: 'Why is the sea salty?',
      tools: [{ type: 'web_search' }],
      reasoning: { summary: 'auto' },
    });
    expect(res.status).toBe('completed');
    const reasoning = res.output.find((o): o is OpenAI.Responses.ResponseReasoningItem => o.type === 'reasoning');
    expect(reasoning?.summary[0].text.length).toBeGreaterThan(0);

    const events: string[] = [];
    for await (const ev of client.responses.stream({ model: 'omega-k3', input: 'Why is the sea salty?', reasoning: { summary: 'auto' } }))
      events.push(ev.type);
    expect(events).toContain('response.reasoning_summary_text.delta');
  });

  it('answers structured output as JSON, and a cut answer as incomplete', async () => {
    const res = await client.responses.create({
      model: 'gamma-2.5-flash',
      input: 'Give me a city',
      text: {
        format: {
          type: 'json_schema',
          name: 'city',
          schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    });
    expect(JSON.parse(res.output_text)).toHaveProperty('city');
    const cut = await client.responses.create({ model: 'gamma-2.5-flash', input: 'Tell me a long story', max_output_tokens: 16 });
    expect(cut).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
  });

  it('keeps a stored response to its account: another account gets 404, and store: false keeps nothing', async () => {
    const admin = new Admin(stack);
    const other = openaiFor(stack, (await admin.fundedKey(1)).key);
    const mine = await client.responses.create({ model: 'gamma-2.5-flash', input: 'remember: 42' });
    const err = await other.responses
      .create({ model: 'gamma-2.5-flash', input: 'what was it?', previous_response_id: mine.id })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect(err.error).toMatchObject({ code: 'not_found', param: 'previous_response_id', type: 'invalid_request_error' });

    const unstored = await client.responses.create({ model: 'gamma-2.5-flash', input: 'forget me', store: false });
    const gone = await client.responses.create({ model: 'gamma-2.5-flash', input: 'x', previous_response_id: unstored.id }).catch((e) => e);
    expect(gone).toBeInstanceOf(OpenAI.NotFoundError);

    // An id no response can have (Postgres text holds no NUL) is unknown like any other, not a 500.
    const impossible = await client.responses
      .create({ model: 'gamma-2.5-flash', input: 'x', previous_response_id: 'resp_\u0000' })
      .catch((e) => e);
    expect(impossible).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('reads a stored response back and deletes it (responses.retrieve, responses.delete), in its own account only', async () => {
    const admin = new Admin(stack);
    const other = openaiFor(stack, (await admin.fundedKey(1)).key);
    const created = await client.responses.create({ model: 'gamma-2.5-flash', input: 'read me back' });
    expect(await client.responses.retrieve(created.id)).toEqual(created);
    // A streamed one is kept as its last event carried it.
    const stream = client.responses.stream({ model: NATIVE_RESPONSES_MODEL, input: 'stream, then read me back' });
    const streamed = await stream.finalResponse();
    expect(await client.responses.retrieve(streamed.id)).toMatchObject({
      id: streamed.id,
      status: 'completed',
      output_text: streamed.output_text,
    });

    const notYours = await other.responses.retrieve(created.id).catch((e) => e);
    expect(notYours).toBeInstanceOf(OpenAI.NotFoundError);
    expect(notYours.error).toMatchObject({
      code: 'not_found',
      type: 'invalid_request_error',
      message: `Response with id '${created.id}' not found.`,
    });
    expect(await other.responses.delete(created.id).catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    const replay = await client.responses.retrieve(created.id, { stream: true }).catch((e) => e);
    expect(replay).toBeInstanceOf(OpenAI.BadRequestError);
    expect(replay.error).toMatchObject({ param: 'stream' });

    const raw = await fetch(`${stack.baseURL}/responses/${created.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${stack.apiKey}` },
    });
    expect(raw.status).toBe(200);
    expect(await json(raw)).toEqual({ id: created.id, object: 'response', deleted: true });
    expect(await client.responses.retrieve(created.id).catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await client.responses.delete(created.id).catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    await client.responses.delete(streamed.id);
    // Unknown, unstored and impossible ids alike.
    const unstored = await client.responses.create({ model: 'gamma-2.5-flash', input: 'x', store: false });
    for (const id of [unstored.id, 'resp_unknown', 'resp_\u0000']) {
      expect(await client.responses.retrieve(id).catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    }
    const anonymous = await fetch(`${stack.baseURL}/responses/${streamed.id}`);
    expect(anonymous.status).toBe(401);
  });

  it('lists the items a stored response was answered from, a page at a time (responses.inputItems.list)', async () => {
    const first = await client.responses.create({ model: 'gamma-2.5-flash', input: 'first question' });
    const second = await client.responses.create({
      model: 'gamma-2.5-flash',
      previous_response_id: first.id,
      input: [
        { role: 'user', content: 'second question' },
        { role: 'user', content: [{ type: 'input_text', text: 'and a third' }] },
      ],
    });
    // The SDK follows the cursor itself: pages of two, oldest first.
    const listed: OpenAI.Responses.ResponseItem[] = [];
    for await (const item of client.responses.inputItems.list(second.id, { limit: 2, order: 'asc' })) listed.push(item);
    expect(listed.map((i) => i.type)).toEqual(['message', 'message', 'message', 'message']);
    expect(listed[0]).toMatchObject({ role: 'user', content: [{ type: 'input_text', text: 'first question' }] });
    expect(listed[1]).toMatchObject({ role: 'assistant', id: first.output[0].id });
    expect(listed[3]).toMatchObject({ role: 'user', content: [{ type: 'input_text', text: 'and a third' }] });
    expect(new Set(listed.map((i) => i.id)).size).toBe(4);
    // Newest first by default.
    const page = await client.responses.inputItems.list(second.id);
    expect(page.data.map((i) => i.id)).toEqual(listed.map((i) => i.id).reverse());
    expect(page.has_more).toBe(false);

    const badLimit = await client.responses.inputItems.list(second.id, { limit: 500 }).catch((e) => e);
    expect(badLimit).toBeInstanceOf(OpenAI.BadRequestError);
    expect(badLimit.error).toMatchObject({ param: 'limit' });
    const badCursor = await client.responses.inputItems.list(second.id, { after: 'msg_nope' }).catch((e) => e);
    expect(badCursor).toBeInstanceOf(OpenAI.BadRequestError);
    expect(badCursor.error).toMatchObject({ param: 'after' });
    // A wrong type in the query says what it was, not that the parameter is missing.
    for (const [query, message] of [
      ['limit=abc', "Invalid 'limit': expected number, got a value that is not a number"],
      ['after=a&after=b', "Invalid 'after': expected string, got array"],
    ]) {
      const res = await fetch(`${stack.baseURL}/responses/${second.id}/input_items?${query}`, {
        headers: { authorization: `Bearer ${stack.apiKey}` },
      });
      expect(res.status).toBe(400);
      expect((await json(res)).error.message).toBe(message);
    }
    const other = openaiFor(stack, (await new Admin(stack).fundedKey(1)).key);
    expect(await other.responses.inputItems.list(second.id).catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });

  describe('WebSocket mode (GET /v1/responses upgraded; the official SDK’s ResponsesWS)', () => {
    /** The events of one `response.create`, up to the one that ends it. */
    const created = async (ws: ResponsesWS, event: OpenAI.Responses.ResponsesClientEvent) => {
      const events: Loose[] = [];
      const ended = new Promise<void>((resolve) => {
        const on = (e: Loose) => {
          events.push(e);
          if (RESPONSE_END_TYPES.includes(e.type)) {
            ws.off('event', on as never);
            resolve();
          }
        };
        ws.on('event', on as never);
      });
      ws.send(event);
      await ended;
      return events;
    };
    const upstreamLog = async () =>
      (await (await fetch(`${stack.simUrl}/_sim/requests`)).json()) as { data: Array<{ path: string; body: unknown }> };
    const sentUpstream = async (marker: string) =>
      (await upstreamLog()).data.filter((r) => JSON.stringify(r.body ?? '').includes(marker)).map((r) => JSON.stringify(r.body));
    let ws: ResponsesWS;
    let funded: { accountId: string; key: string };
    const admin = () => new Admin(stack);
    // The SDK reports an error event on its 'error' channel too: kept here, not thrown.
    const sdkErrors: unknown[] = [];

    beforeAll(async () => {
      funded = await admin().fundedKey(5);
      ws = new ResponsesWS(openaiFor(stack, funded.key));
      ws.on('error', (err) => sdkErrors.push(err));
    });
    afterAll(() => ws?.close());

    it('answers each response.create with its events as over SSE, billed as over HTTP', async () => {
      const marker = `ws-first-${Date.now()}`;
      const events = await created(ws, { type: 'response.create', model: 'omega-k3', input: marker, store: false, max_output_tokens: 400 });
      expect(events[0].type).toBe('response.created');
      expect(events.at(-1)).toMatchObject({ type: 'response.completed', response: { status: 'completed' } });
      expect(events.some((e) => e.type === 'response.output_text.delta')).toBe(true);
      const response = events.at(-1)!.response;
      expect(response.usage.output_tokens).toBeGreaterThan(0);
      expect(await sentUpstream(marker)).toHaveLength(1);
      const usage = await eventually(
        () => admin().usage(funded.accountId),
        (u) => u.some((e) => e.request_id.endsWith(response.id.replace(/^resp_/, ''))),
      );
      expect(usage.length).toBeGreaterThan(0);
    });

    it('continues the connection’s latest response from memory with store: false (Codex sends only the new items)', async () => {
      const first = `ws-turn-one-${Date.now()}`;
      const one = await created(ws, { type: 'response.create', model: 'omega-k3', input: first, store: false, max_output_tokens: 400 });
      const id = one.at(-1)!.response.id as string;
      const second = `ws-turn-two-${Date.now()}`;
      const two = await created(ws, {
        type: 'response.create',
        model: 'omega-k3',
        previous_response_id: id,
        input: [{ role: 'user', content: second }],
        store: false,
        max_output_tokens: 400,
      });
      expect(two.at(-1)).toMatchObject({ type: 'response.completed' });
      // The upstream got the whole conversation: the first turn, its answer, the new words.
      const [sent] = await sentUpstream(second);
      expect(sent).toContain(first);
      expect(sent).toContain(JSON.stringify(one.at(-1)!.response.output.at(-1).content[0].text).slice(1, 40));
      const latest = two.at(-1)!.response.id as string;
      // A bad item is named by its index in the input the client sent, not in the conversation it continues.
      const badItem = await created(ws, {
        type: 'response.create',
        model: 'omega-k3',
        previous_response_id: latest,
        input: [{ role: 'user', content: 'fine' }, { type: 'bogus' }],
        store: false,
      } as never);
      expect(badItem.at(-1)).toMatchObject({
        type: 'error',
        status: 400,
        error: { param: 'input[1].type', message: expect.stringContaining("'input[1].type'") },
      });
      // So is one in a prewarm (generate: false), refused by the edge itself.
      const badWarm = await created(ws, {
        type: 'response.create',
        model: 'omega-k3',
        previous_response_id: latest,
        input: [{ type: 'bogus' }],
        store: false,
        generate: false,
      } as never);
      expect(badWarm.at(-1)).toMatchObject({ type: 'error', status: 400, error: { param: 'input[0].type' } });
      // A continuation whose input has no items' shape is refused naming it, not continued without it.
      const malformed = await created(ws, { type: 'response.create', model: 'omega-k3', previous_response_id: latest, input: 42 } as never);
      expect(malformed.at(-1)).toMatchObject({ type: 'error', status: 400, error: { param: 'input' } });
      // An id this connection did not answer is looked up among stored responses, as over HTTP.
      const unknown = await created(ws, {
        type: 'response.create',
        model: 'omega-k3',
        previous_response_id: 'resp_nope',
        input: 'x',
        store: false,
      });
      expect(unknown.at(-1)).toMatchObject({ type: 'error', status: 404, error: { param: 'previous_response_id' } });
      // An item continued from memory that the next model's upstream cannot take (Gemini takes a tool
      // call's arguments only as a JSON object) names previous_response_id, as over HTTP: the client
      // sent no such item in this request.
      const toolTurn = await created(ws, {
        type: 'response.create',
        model: 'omega-k3',
        input: [
          { type: 'function_call', call_id: 'call_ws_1', name: 'exec', arguments: '[1, 2]' },
          { type: 'function_call_output', call_id: 'call_ws_1', output: 'done' },
          { role: 'user', content: 'and now?' },
        ],
        store: false,
        max_output_tokens: 400,
      } as never);
      expect(toolTurn.at(-1)).toMatchObject({ type: 'response.completed' });
      const continuedOnGemini = await created(ws, {
        type: 'response.create',
        model: 'gamma-2.5-flash',
        previous_response_id: toolTurn.at(-1)!.response.id,
        input: [{ role: 'user', content: 'go on' }],
        store: false,
      });
      expect(continuedOnGemini.at(-1)).toMatchObject({
        type: 'error',
        status: 400,
        error: {
          param: 'previous_response_id',
          message: "Invalid 'previous_response_id': tool call arguments must be a JSON object for this model.",
        },
      });
    });

    it('answers generate: false (Codex’s prewarm) at once with no output, no upstream call and nothing billed; it can be continued', async () => {
      // An account of its own: the suite's may still be settling the charges of the tests before.
      const own = await admin().fundedKey(1);
      const socket = new ResponsesWS(openaiFor(stack, own.key));
      socket.on('error', (err) => sdkErrors.push(err));
      try {
        const marker = `ws-prewarm-${Date.now()}`;
        const warm = await created(socket, {
          type: 'response.create',
          model: 'omega-k3',
          input: marker,
          store: false,
          generate: false,
        } as never);
        expect(warm.map((e) => e.type)).toEqual(['response.created', 'response.completed']);
        expect(warm[1].response).toMatchObject({ status: 'completed', output: [], usage: { input_tokens: 0, output_tokens: 0 } });
        expect(await sentUpstream(marker)).toEqual([]);
        const next = `ws-after-prewarm-${Date.now()}`;
        const answered = await created(socket, {
          type: 'response.create',
          model: 'omega-k3',
          previous_response_id: warm[1].response.id,
          input: next,
          store: false,
          max_output_tokens: 400,
        });
        const [sent] = await sentUpstream(next);
        expect(sent).toContain(marker);
        // One charge, the continuation's: the prewarm has none.
        const charges = await eventually(
          () => admin().usage(own.accountId),
          (u) => u.length > 0,
        );
        expect(charges.map((e) => e.request_id.replace(/^req_/, ''))).toEqual([answered.at(-1)!.response.id.replace(/^resp_/, '')]);
      } finally {
        socket.close();
      }
    });

    it('refuses a prewarm as it would refuse the request itself: an unknown model, one the key may not use, a revoked key', async () => {
      const limited = await admin().fundedKey(1, { models: ['omega-k3'] });
      const socket = new ResponsesWS(openaiFor(stack, limited.key));
      socket.on('error', (err) => sdkErrors.push(err));
      const prewarm = async (model: string) =>
        (await created(socket, { type: 'response.create', model, input: 'warm', store: false, generate: false } as never)).at(-1);
      try {
        expect(await prewarm('no-such-model')).toMatchObject({ type: 'error', status: 404, error: { code: 'model_not_found' } });
        expect(await prewarm('sigma-sonnet-4-6')).toMatchObject({ type: 'error', status: 403, error: { code: 'model_not_allowed' } });
        expect(await prewarm('zeta-4')).toMatchObject({ type: 'error', status: 400, error: { param: 'model' } });
        expect(await prewarm('omega-k3')).toMatchObject({ type: 'response.completed' });
        expect((await admin().call('DELETE', `/keys/${limited.keyId}`)).status).toBe(204);
        // Distributed: the revocation reaches the edge as an event.
        const revoked = await eventually(
          () => prewarm('omega-k3'),
          (e) => e?.type === 'error',
        );
        expect(revoked).toMatchObject({ type: 'error', status: 401 });
      } finally {
        socket.close();
      }
    });

    it('refuses what HTTP refuses, and a malformed message, with an error event carrying the status; the connection stays usable', async () => {
      const bad = await created(ws, { type: 'response.create', model: 'omega-k3', input: 'x', temperature: 7 });
      expect(bad.at(-1)).toMatchObject({ type: 'error', status: 400, error: { type: 'invalid_request_error', param: 'temperature' } });
      const raw = new WebSocket(`${stack.baseURL.replace(/^http/, 'ws')}/responses`, {
        headers: { authorization: `Bearer ${funded.key}` },
      });
      const replies: Loose[] = [];
      raw.on('message', (data) => replies.push(JSON.parse(String(data))));
      await new Promise((resolve, reject) => raw.once('open', resolve).once('error', reject));
      raw.send('{not json');
      raw.send(JSON.stringify({ type: 'session.update' }));
      // Nested deeper than an HTTP body may be: relaying it would overflow the stack (a 500 once).
      raw.send(`{"type":"response.create","model":"omega-k3","input":"x","metadata":${'['.repeat(5_000)}${']'.repeat(5_000)}}`);
      await eventually(
        async () => replies.length,
        (n) => n === 3,
      );
      raw.close();
      expect(replies).toEqual([
        expect.objectContaining({ type: 'error', status: 400, error: expect.objectContaining({ code: 'invalid_json' }) }),
        expect.objectContaining({ type: 'error', status: 400, error: expect.objectContaining({ param: 'type' }) }),
        expect.objectContaining({
          type: 'error',
          status: 400,
          error: expect.objectContaining({ code: 'invalid_json', message: expect.stringContaining('deeper than') }),
        }),
      ]);
      expect(
        (await created(ws, { type: 'response.create', model: 'omega-k3', input: 'still here', max_output_tokens: 400 })).at(-1),
      ).toMatchObject({
        type: 'response.completed',
      });
      expect(sdkErrors.length).toBeGreaterThan(0);
    });

    it('stops the response of a client that goes away mid-stream, charging what it produced and holding nothing', async () => {
      const leaving = await admin().fundedKey(1);
      // The whole answer, for comparison (the simulator answers the same words the same way).
      const whole = await client.responses.create({ model: 'omega-k3', input: 'a long answer please', max_output_tokens: 4000 });
      // The next answer slowed down, so that the client leaves in its middle: at full speed the whole
      // stream (~50 ms) can end before the cut reaches the upstream call (distributed CI did so once).
      await new SimControl(stack).fault({ token_delay_ms: 20, count: 1 });
      const raw = new WebSocket(`${stack.baseURL.replace(/^http/, 'ws')}/responses`, {
        headers: { authorization: `Bearer ${leaving.key}` },
      });
      await new Promise((resolve, reject) => raw.once('open', resolve).once('error', reject));
      let deltas = 0;
      let id = '';
      raw.on('message', (data) => {
        const event = JSON.parse(String(data)) as Loose;
        if (event.type === 'response.created') id = event.response.id;
        if (event.type === 'response.output_text.delta' && ++deltas === 3) raw.terminate();
      });
      raw.send(JSON.stringify({ type: 'response.create', model: 'omega-k3', input: 'a long answer please', max_output_tokens: 4000 }));
      await new Promise((resolve) => raw.once('close', resolve));
      const [entry] = await eventually(
        () => admin().usage(leaving.accountId),
        (u) => u.length === 1,
      );
      expect(entry.request_id.endsWith(id.replace(/^resp_/, ''))).toBe(true);
      expect(entry.output_tokens).toBeGreaterThan(0);
      expect(entry.output_tokens).toBeLessThan(whole.usage!.output_tokens);
      await eventually(
        () => admin().account(leaving.accountId),
        (a) => a.reserved_usd === 0,
      );
    });

    it('refuses a handshake without a valid key with a 401, and serves any other upgrade as plain HTTP', async () => {
      const refused = new WebSocket(`${stack.baseURL.replace(/^http/, 'ws')}/responses`, { headers: { authorization: 'Bearer sk-wrong' } });
      const answer = await new Promise<{ status: number; body: Loose }>((resolve, reject) => {
        refused.on('unexpected-response', (_req, res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        });
        refused.on('open', () => reject(new Error('the handshake was accepted')));
        refused.on('error', () => undefined);
      });
      expect(answer).toMatchObject({ status: 401, body: { error: { code: 'invalid_api_key' } } });
      // curl --http2 on http:// asks for h2c; a WebSocket elsewhere is no operation either: both are answered over HTTP/1.1.
      const get = (path: string, headers: Record<string, string>) =>
        new Promise<{ status: number; body: Loose }>((resolve, reject) => {
          const req = httpRequest(`${stack.baseURL}${path}`, { headers: { authorization: `Bearer ${stack.apiKey}`, ...headers } });
          req.on('response', (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
          });
          req.on('upgrade', () => reject(new Error('the upgrade was accepted')));
          req.on('error', reject);
          req.end();
        });
      const h2c = { connection: 'Upgrade, HTTP2-Settings', upgrade: 'h2c', 'http2-settings': 'AAMAAABkAARAAAAAAAIAAAAA' };
      expect(await get('/models', h2c)).toMatchObject({ status: 200, body: { object: 'list' } });
      const elsewhere = {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      };
      expect(await get('/models', elsewhere)).toMatchObject({ status: 200, body: { object: 'list' } });
      // A plain GET of /v1/responses is the unknown route it always was.
      expect(await get('/responses', {})).toMatchObject({ status: 404, body: { error: { code: 'unknown_endpoint' } } });
    });
  });

  it('compacts a conversation when asked with a compaction_trigger (Codex with its own OpenAI provider), and reads the compaction back', async () => {
    // The shape Codex 0.169.0 sends (captured): the history, then the trigger; streaming, store: false, its tools.
    const history: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: 'Run the command `cat notes.txt` and tell me what it printed.' },
      { type: 'function_call', call_id: 'call_1', name: 'exec_command', arguments: '{"cmd":"cat notes.txt"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'The secret word is PELICAN-42.' },
    ];
    const trigger = { type: 'compaction_trigger' } as unknown as OpenAI.Responses.ResponseInputItem;
    const tools: OpenAI.Responses.Tool[] = [EXEC];
    for (const model of ['gamma-2.5-flash', NATIVE_RESPONSES_MODEL]) {
      const plain = await client.responses.create({ model, input: [...history, trigger], tools, store: false });
      const streamed = await client.responses.stream({ model, input: [...history, trigger], tools, store: false }).finalResponse();
      for (const res of [plain, streamed]) {
        expect(res.output).toHaveLength(1);
        expect(res.output[0]).toMatchObject({ type: 'compaction', encrypted_content: expect.stringMatching(/^unigate-compaction-v1\./) });
        expect(res.usage?.output_tokens).toBeGreaterThan(0);
      }
      // Sent back in place of the history: the upstream reads the summary it carries.
      const sim = model === NATIVE_RESPONSES_MODEL ? native.url : stack.simUrl;
      await fetch(`${sim}/_sim/requests`, { method: 'DELETE' });
      const compaction = plain.output[0] as unknown as { encrypted_content: string };
      const summary = Buffer.from(compaction.encrypted_content.split('.')[1], 'base64url').toString('utf8');
      expect(summary.length).toBeGreaterThan(0);
      const next = await client.responses.create({
        model,
        input: [plain.output[0] as unknown as OpenAI.Responses.ResponseInputItem, { role: 'user', content: 'And now?' }],
        store: false,
      });
      expect(next.status).toBe('completed');
      const upstream = await (await fetch(`${sim}/_sim/requests`)).text();
      expect(upstream).toContain('Summary of the earlier conversation');
      expect(upstream).not.toContain('unigate-compaction-v1');
    }
  });

  it('holds a continuation for the model’s whole window, so a stored conversation cannot cost more than the balance', async () => {
    const admin = new Admin(stack);
    const { accountId, key } = await admin.fundedKey(0.3);
    const keyed = openaiFor(stack, key);
    const first = await keyed.responses.create({ model: 'gamma-2.5-flash', input: 'remember: 42', max_output_tokens: 16 });
    // gamma-2.5-flash reads up to 1,048,576 tokens at $0.30 per million: $0.3146 of input, more than is left.
    const continued = { model: 'gamma-2.5-flash', previous_response_id: first.id, input: 'what was it?', max_output_tokens: 16 };
    const refused = await keyed.responses.create(continued).catch((e) => e);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect(refused.status).toBe(402);

    const credited = await admin.call('POST', `/accounts/${accountId}/credit`, { amount_usd: 0.1, reference: `window-${accountId}` });
    expect(credited.status).toBe(200);
    const second = await keyed.responses.create(continued);
    expect(second.previous_response_id).toBe(first.id);
    // The window was only held: the account pays what the two calls measured, and nothing stays reserved.
    const entries = await eventually(
      () => admin.usage(accountId),
      (e) => e.length === 2,
    );
    const charged = entries.reduce((sum, e) => sum + e.cost_micros, 0);
    const account = await eventually(
      () => admin.account(accountId),
      (a) => a.reserved_usd === 0,
    );
    expect(Math.round(account.balance_usd * 1e6)).toBe(400_000 - charged);
    expect(charged).toBeLessThan(10_000);
  });

  it('bills responses into the ledger, streamed or not', async () => {
    const admin = new Admin(stack);
    const { accountId, key } = await admin.fundedKey(2);
    const keyed = openaiFor(stack, key);
    const { response } = await keyed.responses.create({ model: 'gamma-2.5-flash', input: 'bill me' }).withResponse();
    await keyed.responses.stream({ model: NATIVE_RESPONSES_MODEL, input: 'bill me too' }).finalResponse();
    const entries = await eventually(
      () => admin.usage(accountId),
      (e) => e.length === 2,
    );
    expect(entries.map((e) => e.request_id)).toContain(response.headers.get('x-request-id'));
    for (const e of entries) {
      expect(e.cost_micros).toBeGreaterThan(0);
      expect(e.output_tokens).toBeGreaterThan(0);
    }
  });

  it('caches a conversation on sigma for a prompt_cache_key as OpenAI would (Codex): each turn reads what the one before wrote', async () => {
    const admin = new Admin(stack);
    const { accountId, key } = await admin.fundedKey(2);
    const keyed = openaiFor(stack, key);
    const turn = (input: OpenAI.Responses.ResponseInputItem[]) =>
      keyed.responses.create({
        model: 'sigma-sonnet-4-6',
        instructions: 'house rules '.repeat(550),
        tools: [EXEC],
        store: false,
        prompt_cache_key: `session-${Date.now()}`,
        input,
      });
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Run `ls /srv` and tell me what is there.' }];
    const first = await turn(input);
    const call = functionCall(first)!;
    const second = await turn([
      ...input,
      ...(first.output as OpenAI.Responses.ResponseInputItem[]),
      { type: 'function_call_output', call_id: call.call_id, output: 'backups\nwww' },
    ]);
    // The first turn writes its whole prompt to the cache (billed at the write price); the second reads it back.
    const written = first.usage!.input_tokens_details as { cached_tokens: number; cache_write_tokens?: number };
    expect(written.cached_tokens).toBe(0);
    expect(written.cache_write_tokens).toBeGreaterThan(1100);
    expect(second.usage!.input_tokens_details.cached_tokens).toBe(written.cache_write_tokens);
    const entries = await eventually(
      () => admin.usage(accountId),
      (e) => e.length === 2,
    );
    expect(entries.map((e) => Number(e.units.cached_input_tokens ?? 0)).sort((a, b) => a - b)).toEqual([0, written.cache_write_tokens]);
  });

  it('answers invalid requests with 400 naming the field, in Shape B', async () => {
    const err = await client.responses
      .create({ model: 'gamma-2.5-flash', input: [{ role: 'tool', content: 'x' }] } as never)
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.error).toMatchObject({ type: 'invalid_request_error', param: 'input[0].role' });
  });

  describe('a 400 about a translated request names the client’s own field, before any upstream call', () => {
    const refusal = async (body: Record<string, unknown>) => {
      const err = await client.responses.create(body as never).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      return (err as InstanceType<typeof OpenAI.BadRequestError>).error as { message: string; param: string | null };
    };
    const user = { role: 'user', content: 'hi' };

    it.each(['gamma-2.5-flash', 'sigma-sonnet-4-6'])('%s: arguments that are not JSON, an unanswered call_id', async (model) => {
      const badArguments = await refusal({
        model,
        input: [
          user,
          { type: 'function_call', call_id: 'c1', name: 'f', arguments: 'not json' },
          { type: 'function_call_output', call_id: 'c1', output: 'x' },
        ],
      });
      expect(badArguments).toMatchObject({
        param: 'input[1].arguments',
        message: expect.stringMatching(/^Invalid 'input\[1\]\.arguments': tool call arguments must be a JSON object/),
      });
      if (model !== 'gamma-2.5-flash') return; // Gemini names a result by its call; Anthropic's upstream checks the pairing itself
      expect(await refusal({ model, input: [user, { type: 'function_call_output', call_id: 'nope', output: 'x' }] })).toMatchObject({
        param: 'input[1].call_id',
        message: "Invalid 'input[1].call_id': 'nope' does not answer a tool call made earlier in the conversation.",
      });
    });

    it('is not logged as the upstream’s failure: no upstream was asked; nor is a request the upstream refuses', async () => {
      const logged = stack.processes.map((p) => p.logs().length);
      const input = [
        user,
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: 'not json' },
        { type: 'function_call_output', call_id: 'c1', output: 'x' },
      ];
      await refusal({ model: 'sigma-sonnet-4-6', input });
      // The upstream's own 400 about the request: the client's mistake too (outcome "rejected", at info).
      const sim = new SimControl(stack);
      await sim.fault({ match: { path: '/v1/messages' }, status: 400, message: 'prompt is too long', count: 1 });
      const rejected = await client.responses.create({ model: 'sigma-sonnet-4-6', input: 'hi' }).catch((e: unknown) => e);
      expect(rejected).toMatchObject({ status: 400, error: { message: 'prompt is too long' } });
      // An absence has nothing to wait for: a call right after it whose upstream does fail (it refuses
      // the channel's key) is logged as failed, by the same process, after it. Once that line is in,
      // the refusal's would be too.
      await sim.fault({ match: { path: '/v1/messages' }, status: 401, count: 1 });
      const failed = await fetch(`${stack.baseURL}/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sigma-sonnet-4-6', input: 'hi' }),
      });
      expect(failed.status).toBe(502);
      const marker = failed.headers.get('x-request-id')!;
      const since = () => stack.processes.map((p, i) => p.logs().slice(logged[i])).join('\n');
      await eventually(
        async () => since(),
        (logs) => logs.includes(marker),
      );
      const failures = since()
        .split('\n')
        .filter((line) => line.includes('upstream attempt failed'));
      expect(failures.length).toBeGreaterThan(0);
      expect(failures.filter((line) => !line.includes(marker))).toEqual([]);
    });

    it('an image URL the model cannot fetch', async () => {
      const input = [{ role: 'user', content: [{ type: 'input_image', image_url: 'ftp://x/y.png' }] }];
      expect(await refusal({ model: 'sigma-sonnet-4-6', input })).toMatchObject({
        param: 'input[0].content[0].image_url',
        message: expect.stringMatching(/^Invalid 'input\[0\]\.content\[0\]\.image_url': /),
      });
      expect(await refusal({ model: 'gamma-2.5-flash', input })).toMatchObject({ param: 'input[0].content[0]' });
    });

    it('an item of a continuation, counted in the input the client sent', async () => {
      const first = await client.responses.create({ model: 'gamma-2.5-flash', input: 'Say hi' });
      expect(
        await refusal({
          model: 'gamma-2.5-flash',
          previous_response_id: first.id,
          input: [{ type: 'function_call_output', call_id: 'nope', output: 'x' }],
        }),
      ).toMatchObject({ param: 'input[0].call_id', message: expect.stringMatching(/^Invalid 'input\[0\]\.call_id': 'nope'/) });
    });

    it('a conversation with nothing to answer but instructions, on the models whose upstream needs more; omega-k3 takes it', async () => {
      for (const model of ['gamma-2.5-flash', 'sigma-sonnet-4-6']) {
        for (const input of [
          [{ role: 'developer', content: 'Be brief' }],
          [{ role: 'user', content: [{ type: 'input_text', text: '' }] }],
        ]) {
          expect(await refusal({ model, instructions: 'Be kind', input })).toEqual({
            type: 'invalid_request_error',
            code: 'invalid_value',
            param: 'input',
            message:
              "Invalid 'input': the model needs at least one user or assistant message with content besides the system instructions.",
          });
        }
      }
      const res = await client.responses.create({ model: 'omega-k3', input: [{ role: 'developer', content: 'Say hi' }] });
      expect(res.status).toBe('completed');
    });

    it('tool_choice without the name of its function', async () => {
      expect(await refusal({ model: 'gamma-2.5-flash', input: 'hi', tools: [EXEC], tool_choice: { type: 'function' } })).toMatchObject({
        param: 'tool_choice.name',
        message: "Invalid 'tool_choice.name': tool_choice.name is required",
      });
      expect(await refusal({ model: 'gamma-2.5-flash', input: 'hi', tools: [EXEC], tool_choice: { type: 'custom' } })).toMatchObject({
        param: 'tool_choice.name',
      });
    });

    it('an empty or blank body', async () => {
      for (const body of ['', ' \t ']) {
        const res = await fetch(`${stack.baseURL}/responses`, {
          method: 'POST',
          headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
          body,
        });
        expect(res.status).toBe(400);
        expect((await json(res)).error).toMatchObject({ message: 'The request body is empty: it must be a JSON object.', param: null });
      }
    });
  });

  it('ends a stream that fails midway with response.failed', async () => {
    await fetch(`${stack.simUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { model: 'gamma-2.5-flash' }, cut_after_chunks: 2, count: 1 }),
    });
    const res = await fetch(`${stack.baseURL}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gamma-2.5-flash', input: 'Tell me about tides', stream: true }),
    });
    expect(res.status).toBe(200);
    const events = await readSseEvents(res);
    const last = events.at(-1)!;
    expect(last.event).toBe('response.failed');
    const data = JSON.parse(last.data);
    expect(data).toMatchObject({ type: 'response.failed', response: { status: 'failed', error: { code: 'server_error' } } });
    expect(data.sequence_number).toBe(events.length - 1);
    expect(events.filter((e) => e.event === 'response.failed')).toHaveLength(1);
    // The response so far, as OpenAI ends a failed stream: the created response's id, model and time,
    // and the message being written, `incomplete`, with the text that went out.
    const created = JSON.parse(events[0].data).response;
    const text = events
      .filter((e) => e.event === 'response.output_text.delta')
      .map((e) => JSON.parse(e.data).delta)
      .join('');
    expect(text.length).toBeGreaterThan(0);
    expect(data.response).toMatchObject({ id: created.id, model: 'gamma-2.5-flash', created_at: created.created_at });
    expect(data.response.output).toEqual([
      expect.objectContaining({ type: 'message', status: 'incomplete', content: [expect.objectContaining({ type: 'output_text', text })] }),
    ]);
  });

  it("a failed stream read by the SDK: its final response is the failed one, with the model's name", async () => {
    await fetch(`${stack.simUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { model: 'gamma-2.5-flash' }, cut_after_chunks: 2, count: 1 }),
    });
    const types: string[] = [];
    let failed: OpenAI.Responses.Response | undefined;
    const stream = await client.responses.create({ model: 'gamma-2.5-flash', input: 'Tell me about tides', stream: true });
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.failed') failed = event.response;
    }
    expect(types.at(-1)).toBe('response.failed');
    expect(failed).toMatchObject({ status: 'failed', model: 'gamma-2.5-flash', error: { code: 'server_error' } });
  });

  it('rejects a request for a model of another kind', async () => {
    const res = await fetch(`${stack.baseURL}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'text-embedding-v4', input: 'hi' }),
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: { code: 'model_not_supported' } });
  });
}
