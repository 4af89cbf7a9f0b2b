/**
 * The MCP server at /mcp end to end with the official @modelcontextprotocol/sdk client: the tools are
 * the endpoint specs (plus models and balance) and go through the same pipeline as HTTP — charged,
 * limited and refused exactly like it, with the HTTP error's message — and the resources read.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ENDPOINTS } from '@unigate/contracts';
import { Admin, eventually } from './admin';
import { chargeOf } from './media-billing';
import { videoBody } from './video-cases';
import type { Stack } from './stacks';
import { json, useStack, type Loose } from './use-stack';

const MODEL = 'sigma-sonnet-4-6';
const CHAT = { model: MODEL, messages: [{ role: 'user', content: 'Name three lighthouses' }], max_tokens: 16 };

export function mcpSuite(start: () => Promise<Stack>) {
  let stack: Stack;
  let admin: Admin;
  const clients: Client[] = [];

  useStack(start, (s) => {
    stack = s;
    admin = new Admin(s);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  /** The last edge replica: with several, the MCP calls land on another one than the HTTP calls. */
  const mcpOrigin = () => stack.edges[stack.edges.length - 1].origin;

  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: 'unigate-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${mcpOrigin()}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  /** One JSON-RPC message POSTed to `/mcp` on the first edge with the stack's key, as no SDK would send it. */
  const postRpc = (message: object) =>
    fetch(`${stack.origin}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stack.apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', ...message }),
    });

  const call = async (client: Client, name: string, args: object = {}) =>
    (await client.callTool({ name, arguments: args as Record<string, unknown> })) as CallToolResult;
  const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;
  const chatHttp = (key: string, body: object) =>
    fetch(`${stack.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('lists a tool per served endpoint spec with its contract schema, plus list_models and get_balance', async () => {
    const client = await connect(stack.apiKey);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const spec of ENDPOINTS) expect(names).toContain(spec.name.replace(/\./g, '_'));
    expect(names).toEqual(expect.arrayContaining(['list_models', 'get_balance']));
    const chat = tools.find((t) => t.name === 'chat_completions')!;
    expect(chat.inputSchema.required).toEqual(['model', 'messages']);
    expect(Object.keys(chat.inputSchema.properties!)).toEqual(expect.arrayContaining(['model', 'messages', 'max_tokens', 'tools']));
    // A tool answers in one piece.
    expect(chat.inputSchema.properties).not.toHaveProperty('stream');
    // Image generation takes a format per model family: the tool says each one's fields, in one object
    // schema (an agent's model API refuses a tool whose schema is an anyOf at the top).
    const images = tools.find((t) => t.name === 'images_generations')!;
    expect(images.inputSchema).toMatchObject({ type: 'object', required: ['model'] });
    expect(images.inputSchema).not.toHaveProperty('anyOf');
    expect(Object.keys(images.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['model', 'prompt', 'size', 'input', 'parameters', 'response_format', 'previous_interaction_id']),
    );
    expect(images.description).toMatch(/delta \(delta-image-\*\): model, prompt/);
    expect((images.inputSchema.properties!.parameters as { description: string }).description).toBe('alpha family only');
  });

  it('lists the resources and reads each with its MIME type', async () => {
    const client = await connect(stack.apiKey);
    const { resources } = await client.listResources();
    expect(resources.map((r) => [r.uri, r.mimeType])).toEqual([
      ['unigate://models', 'application/json'],
      ['unigate://prices', 'application/json'],
      ['unigate://reference', 'text/markdown'],
    ]);
    const read = async (uri: string) => {
      const { contents } = await client.readResource({ uri });
      expect(contents[0].mimeType).toBe(resources.find((r) => r.uri === uri)!.mimeType);
      return (contents[0] as { text: string }).text;
    };
    const models = JSON.parse(await read('unigate://models')) as Loose;
    expect(models.data.find((m: Loose) => m.id === MODEL)).toMatchObject({ family: 'sigma', kind: 'chat' });
    const prices = JSON.parse(await read('unigate://prices')) as Loose;
    expect(prices.currency).toBe('USD');
    expect(prices.data.find((p: Loose) => p.model === MODEL).prices.output_per_mtok).toBeGreaterThan(0);
    const reference = await read('unigate://reference');
    for (const spec of ENDPOINTS) expect(reference).toContain(`### POST ${spec.path}`);
    // The video task lookup too, with its tool.
    expect(reference).toContain('### GET /v1/videos/generations/{id}');
    expect(reference).toContain('- MCP tool: `videos_generations_get`');
  });

  it('the chat tool answers like the HTTP call and the ledger charges it exactly the same', async () => {
    const viaMcp = await admin.fundedKey(1);
    const viaHttp = await admin.fundedKey(1);
    const result = await call(await connect(viaMcp.key), 'chat_completions', CHAT);
    expect(result.isError).toBeFalsy();
    const answer = JSON.parse(textOf(result)) as Loose;
    expect(answer.object).toBe('chat.completion');
    expect(answer.choices[0].message.content.length).toBeGreaterThan(0);
    expect(result.structuredContent).toEqual(answer);

    const http = await chatHttp(viaHttp.key, CHAT);
    expect(http.status).toBe(200);
    expect((await json(http)).usage).toEqual(answer.usage);

    const [mcpEntry] = await eventually(
      () => admin.usage(viaMcp.accountId),
      (e) => e.length === 1,
    );
    const [httpEntry] = await eventually(
      () => admin.usage(viaHttp.accountId),
      (e) => e.length === 1,
    );
    expect(mcpEntry.request_id).toBe(result._meta?.request_id);
    expect(mcpEntry.cost_micros).toBeGreaterThan(0);
    expect(mcpEntry.cost_micros).toBe(httpEntry.cost_micros);
    const account = await eventually(
      () => admin.account(viaMcp.accountId),
      (a) => a.reserved_usd === 0,
    );
    expect(Math.round((1 - account.balance_usd) * 1e6)).toBe(mcpEntry.cost_micros);

    const balance = await call(await connect(viaMcp.key), 'get_balance');
    expect(balance.structuredContent).toMatchObject({ balance_usd: account.balance_usd, used_usd: mcpEntry.cost_micros / 1e6 });
  });

  it.each([
    ['images_generations', { model: 'delta-image-2', prompt: 'a red lighthouse', size: '1024x1024', quality: 'low' }, 'image', 'image/png'],
    ['embeddings', { model: 'zeta-4', input: ['the harbour at dawn', 'a lighthouse keeper'] }, 'text', undefined],
    ['audio_speech', { model: 'alpha3-tts-flash', voice: 'Ethan', input: 'Hello harbour' }, 'audio', 'audio/mpeg'],
  ] as const)('the %s tool answers with the real endpoint and the ledger charges it', async (tool, args, contentType, mimeType) => {
    const { accountId, key } = await admin.fundedKey(1);
    const result = await call(await connect(key), tool, args);
    expect(result.isError).toBeFalsy();
    // The answer's JSON first (as text), then the image or audio it carried as MCP content.
    const content = result.content.find((c) => c.type === contentType);
    expect(content).toMatchObject({ type: contentType, ...(mimeType ? { mimeType } : {}) });
    if (tool === 'images_generations') {
      // The bytes are a real PNG of the asked size: its header says 1024 × 1024.
      const bytes = Buffer.from((content as { data: string }).data, 'base64');
      expect(bytes.subarray(1, 4).toString()).toBe('PNG');
      expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1024, 1024]);
    }
    if (tool === 'embeddings') {
      const answer = result.structuredContent as Loose;
      expect(answer.data.map((d: Loose) => d.embedding.length)).toEqual([1024, 1024]);
    }
    const requestId = result._meta?.request_id as string;
    expect(requestId).toMatch(/\S/);
    const entry = await chargeOf(admin, accountId, requestId);
    expect(entry.cost_micros).toBeGreaterThan(0);
    const account = await eventually(
      () => admin.account(accountId),
      (a) => a.reserved_usd === 0,
    );
    expect(Math.round((1 - account.balance_usd) * 1e6)).toBe(entry.cost_micros);
  });

  it('a video submitted with the videos_generations tool is polled with videos_generations_get to its result, and charged', async () => {
    const { accountId, key } = await admin.fundedKey(2);
    const client = await connect(key);
    const { tools } = await client.listTools();
    const lookup = tools.find((t) => t.name === 'videos_generations_get');
    expect(lookup).toMatchObject({ title: 'GET /v1/videos/generations/{id}', annotations: { readOnlyHint: true } });
    expect(lookup!.inputSchema).toMatchObject({ required: ['id'], properties: { id: { type: 'string' } } });

    const submitted = await call(client, 'videos_generations', videoBody('beta2.6-t2v', 'a lighthouse [sim:polls=2]'));
    expect(submitted.isError).toBeFalsy();
    expect(submitted._meta?.http_status).toBe(202);
    const task = submitted.structuredContent as Loose;
    expect(task).toMatchObject({ object: 'video.generation.task', status: 'queued' });
    const poll = (id: string) => call(client, 'videos_generations_get', { id });
    const done = await eventually(
      async () => (await poll(task.id)).structuredContent as Loose,
      (t) => ['succeeded', 'failed', 'cancelled'].includes(t.status),
    );
    expect(done).toMatchObject({ id: task.id, status: 'succeeded', usage: { duration: 5 }, upstream_id: task.upstream_id });
    // The link is on the origin the MCP client called, as over HTTP.
    expect(done.content.video_url).toMatch(new RegExp(`^${mcpOrigin()}/v1/files/`));
    expect((await poll(task.upstream_id)).structuredContent).toMatchObject({ id: task.id, status: 'succeeded' });
    const charge = await chargeOf(admin, accountId, submitted._meta?.request_id as string);
    expect(charge.cost_micros).toBe(5 * 100_000);

    // Another account's task, an unknown id: the HTTP 404 as a tool error. No id: the 400 naming it.
    const other = await call(await connect(stack.apiKey), 'videos_generations_get', { id: task.id });
    expect(other).toMatchObject({ isError: true, _meta: { http_status: 404 } });
    expect(textOf(other)).toBe(`No video task '${task.id}'.`);
    const missing = await call(client, 'videos_generations_get', {});
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toBe("Invalid 'id': id is required");
    // An id of the wrong type is said to be one, not to be missing.
    const wrong = await call(client, 'videos_generations_get', { id: 5 });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/^Invalid 'id': .*expected string/);
    expect(textOf(wrong)).not.toMatch(/required/);
  });

  it('the messages tool answers in the messages format; list_models lists what the key may use', async () => {
    const client = await connect(stack.apiKey);
    const result = await call(client, 'messages', { model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'Hello' }] });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ type: 'message', role: 'assistant' });
    const { key } = await admin.fundedKey(1, { models: [MODEL] });
    const models = await call(await connect(key), 'list_models');
    expect((models.structuredContent as Loose).data.map((m: Loose) => m.id)).toEqual([MODEL]);
  });

  it('a zero balance is a tool error carrying the HTTP 402 message, and nothing is charged', async () => {
    const { accountId, key } = await admin.fundedKey(0);
    const http = await chatHttp(key, CHAT);
    expect(http.status).toBe(402);
    const message = (await json(http)).error.message;
    const result = await call(await connect(key), 'chat_completions', CHAT);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(message);
    expect(result._meta?.http_status).toBe(402);
    expect(await admin.usage(accountId)).toEqual([]);
  });

  it('over the rate limit a tool call is a tool error carrying the HTTP 429 message; tool and HTTP calls share the limit', async () => {
    const { key } = await admin.fundedKey(1, { rate_limit_rpm: 2 });
    const client = await connect(key);
    expect((await call(client, 'chat_completions', CHAT)).isError).toBeFalsy();
    expect((await chatHttp(key, CHAT)).status).toBe(200);
    const throttled = await call(client, 'chat_completions', CHAT);
    const http = await chatHttp(key, CHAT);
    expect(http.status).toBe(429);
    const body = await json(http);
    expect(throttled.isError).toBe(true);
    expect(throttled._meta?.http_status).toBe(429);
    expect(textOf(throttled)).toBe(body.message);
    expect(throttled.structuredContent).toMatchObject({ code: 'Throttling.RateQuota' });
  });

  it('a client that leaves mid tool call stops it: its concurrency slot is free again at once, as over HTTP', async () => {
    const { key } = await admin.fundedKey(1, { max_concurrency: 1 });
    const marker = `mcp-leaves-${Date.now()}`;
    await fetch(`${stack.simUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { model: MODEL }, latency_ms: 8000, count: 1 }),
    });
    const leaving = new AbortController();
    const pending = fetch(`${mcpOrigin()}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'chat_completions', arguments: { ...CHAT, messages: [{ role: 'user', content: marker }] } },
      }),
      signal: leaving.signal,
    }).catch(() => undefined);
    await eventually(
      async () => {
        const log = (await (await fetch(`${stack.simUrl}/_sim/requests`)).json()) as { data: Array<{ body: unknown }> };
        return log.data.filter((r) => JSON.stringify(r.body ?? '').includes(marker)).length;
      },
      (n) => n === 1,
    );
    leaving.abort();
    await pending;
    // Were the call still running, the one slot would stay taken for the upstream's 8 seconds.
    const next = await eventually(
      async () => (await chatHttp(key, CHAT)).status,
      (status) => status !== 429,
      3000,
    );
    expect(next).toBe(200);
  });

  it('tells a caller that asked for progress that its tool call still runs, so a slow upstream outlives the client’s own timeout', async () => {
    const { key } = await admin.fundedKey(1);
    await fetch(`${stack.simUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { model: MODEL }, latency_ms: 8_000, count: 1 }),
    });
    const client = await connect(key);
    const progress: Array<{ progress: number; message?: string }> = [];
    // 6.5 s alone would end the call before the upstream's 8 s; the notification at 5 s starts it again.
    const result = (await client.callTool({ name: 'chat_completions', arguments: CHAT }, undefined, {
      timeout: 6_500,
      resetTimeoutOnProgress: true,
      onprogress: (p) => progress.push(p),
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect((JSON.parse(textOf(result)) as Loose).object).toBe('chat.completion');
    expect(progress[0]).toMatchObject({ progress: 5, message: 'Still working: 5 s so far.' });
  }, 20_000);

  it('an invalid body is a tool error with the 400 naming the field', async () => {
    const result = await call(await connect(stack.apiKey), 'chat_completions', { model: MODEL, messages: [] });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { param: 'messages' } });
  });

  it('refuses a call without a key or with a wrong one: 401 pointing at the protected-resource metadata', async () => {
    for (const headers of [{}, { authorization: 'Bearer sk-wrong' }] as Record<string, string>[]) {
      const res = await fetch(`${mcpOrigin()}/mcp`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(res.status).toBe(401);
      const challenge = res.headers.get('www-authenticate')!;
      expect(challenge).toMatch(/^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/);
      expect((await json(res)).error.code).toBe('invalid_api_key');
      const metadata = await json(await fetch(/"(.+)"/.exec(challenge)![1]));
      expect(metadata).toMatchObject({ resource: `${mcpOrigin()}/mcp`, bearer_methods_supported: ['header'] });
    }
    // The SDK client reports the HTTP status and the gateway's message.
    await expect(connect('sk-wrong')).rejects.toMatchObject({ code: 401, message: expect.stringContaining('Incorrect API key provided.') });
  });

  it('a request whose params its method refuses is -32602 Invalid params naming the field, never -32603', async () => {
    const cases = [
      [{ method: 'tools/call', params: { name: 'list_models', arguments: [1] } }, 'params.arguments'],
      [{ method: 'tools/call', params: { name: 5 } }, 'params.name'],
      [{ method: 'tools/call' }, 'params'],
      [{ method: 'resources/read', params: { uri: 7 } }, 'params.uri'],
      [{ method: 'tools/list', params: { cursor: 5 } }, 'params.cursor'],
    ] as const;
    for (const [request, field] of cases) {
      const body = await json(await postRpc({ id: 9, ...request }));
      // The gateway's one sentence naming the field, as an HTTP 400 says it; not a dump of zod's issues.
      expect([field, body.error.code, body.error.message]).toEqual([
        field,
        -32602,
        expect.stringMatching(`^MCP error -32602: Invalid '${field}': [^\\n]+$`),
      ]);
    }
  });

  it.each([
    ['JSON cut short', '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"'],
    ['JSON nested past the depth limit', '['.repeat(200) + ']'.repeat(200)],
  ])('a body that is not JSON (%s) is JSON-RPC’s parse error -32700, as the SDK’s transport answers it', async (_case, body) => {
    const res = await fetch(`${stack.origin}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stack.apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body,
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: Invalid JSON', data: expect.stringContaining('JSON') },
      id: null,
    });
  });

  it('is stateless: a tools/call sent to any replica with no session is answered; GET and DELETE are 405', async () => {
    const res = await postRpc({ id: 7, method: 'tools/call', params: { name: 'list_models', arguments: {} } });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const body = await json(res);
    expect(body.id).toBe(7);
    expect(body.result.structuredContent.data.length).toBeGreaterThan(0);
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(`${stack.origin}/mcp`, { method, headers: { authorization: `Bearer ${stack.apiKey}` } });
      expect(r.status).toBe(405);
    }
  });
}
