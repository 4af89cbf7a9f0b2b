/**
 * A scripted Claude Code session against a non-sigma model: the requests the coding assistant makes
 * when pointed at the gateway with ANTHROPIC_BASE_URL + ANTHROPIC_AUTH_TOKEN (Bearer) or
 * ANTHROPIC_API_KEY (x-api-key), its default model names aliased by the operator to gamma-2.5-pro.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Admin, eventually } from './support/admin';
import { readSseEvents } from './support/sse-events';
import { startStandalone, type Stack } from './support/stacks';

const MAIN_MODEL = 'claude-sonnet-4-5-20250929';
const FAST_MODEL = 'claude-haiku-4-5-20251001';

const SYSTEM = [
  { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: 'ephemeral' } },
  { type: 'text', text: 'You are an interactive CLI tool that helps users with software engineering tasks.', cache_control: { type: 'ephemeral' } },
];
const TOOLS = [
  {
    name: 'Bash',
    description: 'Executes a given bash command in a persistent shell session.',
    input_schema: {
      type: 'object',
      properties: { command: { type: 'string', description: 'The command to execute' }, timeout: { type: 'number' } },
      required: ['command'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    name: 'Read',
    description: 'Reads a file from the local filesystem.',
    input_schema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'], additionalProperties: false },
  },
];

describe('a scripted Claude Code session on gamma-2.5-pro through aliases', () => {
  let stack: Stack;
  let accountId: string;
  let key: string;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'unigate-cc-'));
    const config = join(dir, 'unigate.yaml');
    writeFileSync(config, ['aliases:', '  "claude-sonnet-*": gamma-2.5-pro', '  "claude-haiku-*": gamma-2.5-flash'].join('\n'));
    stack = await startStandalone({ UNIGATE_CONFIG: config });
    ({ accountId, key } = await new Admin(stack).fundedKey(10));
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const post = (path: string, body: object, auth: 'bearer' | 'x-api-key' = 'bearer') =>
    fetch(`${stack.origin}${path}`, {
      method: 'POST',
      headers: {
        ...(auth === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key }),
        'content-type': 'application/json',
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14',
        'x-app': 'cli',
        'user-agent': 'claude-cli/2.0.0 (external, cli)',
      },
      body: JSON.stringify(body),
    });

  it('runs count_tokens, a streamed tool call, the tool_result follow-up and a fast-model side request', async () => {
    // 1. count_tokens for the context meter.
    const count = await post('/v1/messages/count_tokens?beta=true', { model: MAIN_MODEL, system: SYSTEM, tools: TOOLS, messages: [{ role: 'user', content: 'List the files here' }] });
    expect(count.status).toBe(200);
    expect((await count.json()).input_tokens).toBeGreaterThan(0);

    // 2. the main turn: streamed, with tools, metadata and a thinking budget.
    const turn = {
      model: MAIN_MODEL,
      max_tokens: 32000,
      stream: true,
      system: SYSTEM,
      tools: TOOLS,
      metadata: { user_id: 'user_abc_account__session_123' },
      messages: [{ role: 'user', content: [{ type: 'text', text: 'List the files here', cache_control: { type: 'ephemeral' } }] }],
    };
    const first = await post('/v1/messages?beta=true', turn);
    expect(first.status).toBe(200);
    const events = await readSseEvents(first);
    const types = events.map((e) => e.event);
    expect(types[0]).toBe('message_start');
    expect(types).toContain('ping');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    const parsed = events.map((e) => JSON.parse(e.data));
    expect(parsed[0].message.usage.input_tokens).toBeGreaterThan(0);
    const toolStart = parsed.find((e) => e.type === 'content_block_start' && e.content_block.type === 'tool_use');
    expect(toolStart).toBeDefined();
    const toolIndex = toolStart.index;
    const inputJson = parsed
      .filter((e) => e.type === 'content_block_delta' && e.index === toolIndex)
      .map((e) => e.delta.partial_json)
      .join('');
    const input = JSON.parse(inputJson);
    expect(toolStart.content_block.name).toBe('Bash');
    expect(typeof input.command).toBe('string');
    expect(parsed.find((e) => e.type === 'message_delta').delta.stop_reason).toBe('tool_use');
    // Every block that starts stops, in order.
    const starts = parsed.filter((e) => e.type === 'content_block_start').map((e) => e.index);
    const stops = parsed.filter((e) => e.type === 'content_block_stop').map((e) => e.index);
    expect(stops).toEqual(starts);

    // 3. the follow-up with the tool's result, as x-api-key (ANTHROPIC_API_KEY) this time.
    const followUp = {
      ...turn,
      messages: [
        ...turn.messages,
        { role: 'assistant', content: [{ type: 'tool_use', id: toolStart.content_block.id, name: 'Bash', input }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolStart.content_block.id, content: 'README.md\npackage.json\nsrc' }] },
      ],
    };
    const second = await post('/v1/messages?beta=true', followUp, 'x-api-key');
    expect(second.status).toBe(200);
    const secondEvents = (await readSseEvents(second)).map((e) => JSON.parse(e.data));
    const text = secondEvents.filter((e) => e.type === 'content_block_delta' && e.delta.type === 'text_delta').map((e) => e.delta.text).join('');
    expect(text.length).toBeGreaterThan(0);
    expect(secondEvents.find((e) => e.type === 'message_delta').delta.stop_reason).toBe('end_turn');

    // 4. the small fast model Claude Code uses for titles and summaries, non-streamed.
    const side = await post('/v1/messages?beta=true', { model: FAST_MODEL, max_tokens: 512, messages: [{ role: 'user', content: 'Summarise this session in five words' }] });
    expect(side.status).toBe(200);
    const sideMsg = await side.json();
    expect(sideMsg.model).toBe(FAST_MODEL);
    expect(sideMsg.content.some((b: { type: string }) => b.type === 'text')).toBe(true);

    // Every call was billed: three messages calls, three ledger entries.
    const ledger = await eventually(() => new Admin(stack).usage(accountId), (e) => e.length === 3);
    expect(new Set(ledger.map((e: { model?: string }) => e.model))).toEqual(new Set(['gamma-2.5-pro', 'gamma-2.5-flash']));
  });
});
