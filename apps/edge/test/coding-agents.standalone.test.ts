/**
 * The real coding agents, installed from npm, against the standalone gateway: Claude Code 2.1.328
 * (`claude -p`, on /v1/messages) and Codex CLI 0.169.0 (`codex exec`, on /v1/responses). Each run
 * answers, tool calls go through the agents' own loops (the simulator plays the model, calling the
 * offered tool when asked to read a file or run a command), every session is charged in the ledger,
 * and a wrong key is an authentication error in each client. Standalone only: these runs test the
 * clients against the gateway's HTTP surface, which both deployments share (the captured-client
 * suite replays the same requests on both).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMPACTION_PROMPT, OWN_COMPACTION_PREFIX, SUMMARY_PREFIX } from '@unigate/contracts';
import { metricSum, scrapeMetrics } from '@unigate/testing';
import { Admin, eventually } from './support/admin';
import { agentText, runClaude, runCodex, tempDir, type ClaudeAuth } from './support/agent-cli';
import { startStandalone, type Stack } from './support/stacks';

const SECRET = 'The secret word is PELICAN-42.';
const WRONG_KEY = 'sk-wrong0000000000000000000000000000000000';

let stack: Stack;
let admin: Admin;
let accountId: string;
let key: string;
let work: string;

beforeAll(async () => {
  stack = await startStandalone();
  admin = new Admin(stack);
  ({ accountId, key } = await admin.fundedKey(20));
  work = tempDir('unigate-agent-work-');
  writeFileSync(join(work, 'notes.txt'), `${SECRET}\n`);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

/** The ledger entries a session added (newest first), once `count` of them have settled. */
async function charged(before: number, count: number): Promise<Array<{ model: string; cost_micros: number }>> {
  const entries = await eventually(
    () => admin.usage(accountId),
    (e) => e.length >= before + count,
  );
  return entries.slice(0, entries.length - before);
}

const ledgerSize = async () => (await admin.usage(accountId)).length;

describe('Claude Code 2.1.328', () => {
  // No --model: Claude Code asks for its own default (claude-opus-5-5), aliased to a messages-native model.
  const MODELS: Array<[string, string | undefined, string]> = [
    ['its own model name, native messages format', undefined, 'sigma-opus-4-7'],
    ['gamma-2.5-flash, translated', 'gamma-2.5-flash', 'gamma-2.5-flash'],
    ['omega-k3, translated', 'omega-k3', 'omega-k3'],
  ];
  const AUTH: Array<ClaudeAuth['variable']> = ['ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_API_KEY'];

  describe.each(MODELS)('on %s', (_label, model, billedModel) => {
    it.each(AUTH)('answers `claude -p` with %s, and the session is charged', async (variable) => {
      const before = await ledgerSize();
      const res = await runClaude(stack.origin, { variable, key }, 'Say hi', { cwd: work, model });
      expect(res).toMatchObject({ is_error: false, api_error_status: null });
      expect(res.result.length).toBeGreaterThan(0);
      const entries = await charged(before, 1);
      expect(entries.map((e) => e.model)).toEqual([billedModel]);
      expect(entries[0].cost_micros).toBeGreaterThan(0);
    });
  });

  it.each([
    ['gamma-2.5-flash, translated', 'gamma-2.5-flash', 'gamma-2.5-flash'],
    ['its own model name, native', undefined, 'sigma-opus-4-7'],
  ])('reads a file with its Read tool and answers with its content (%s)', async (_label, model, billedModel) => {
    const before = await ledgerSize();
    const res = await runClaude(
      stack.origin,
      { variable: 'ANTHROPIC_AUTH_TOKEN', key },
      `Read the file ${join(work, 'notes.txt')} and tell me what it says.`,
      {
        cwd: work,
        model,
      },
    );
    expect(res.is_error).toBe(false);
    expect(res.num_turns).toBe(2); // the tool call, then the answer
    expect(res.result).toContain(SECRET);
    const entries = await charged(before, 2);
    expect(entries.map((e) => e.model)).toEqual([billedModel, billedModel]);
  });

  it.each(['ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_API_KEY'] as const)(
    'reports a wrong key in %s as an authentication error',
    async (variable) => {
      const res = await runClaude(stack.origin, { variable, key: WRONG_KEY }, 'Say hi', { cwd: work });
      expect(res).toMatchObject({ is_error: true, api_error_status: 401 });
    },
  );

  // Its gateway model discovery (read from the binary): GET /v1/models?limit=1000 with anthropic-version and the key
  // as x-api-key or Bearer, the answer checked against Anthropic's list shape, then only ids naming claude or
  // anthropic kept. The built-in catalogue has none, so 0 are kept; before, x-api-key was a 401 here.
  it.each(AUTH)('reads the model list through its gateway model discovery with %s', async (variable) => {
    const debugFile = join(tempDir('unigate-claude-debug-'), 'debug.txt');
    const res = await runClaude(stack.origin, { variable, key }, 'Say hi', {
      cwd: work,
      env: { CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: '1' },
      debugFile,
    });
    expect(res.is_error).toBe(false);
    const discovery = readFileSync(debugFile, 'utf8')
      .split('\n')
      .filter((l) => l.includes('[gatewayDiscovery]'));
    expect(discovery).toEqual([expect.stringContaining('[gatewayDiscovery] 0 usable models after filter')]);
  });
});

describe('Codex CLI 0.169.0', () => {
  it.each(['gamma-2.5-flash', 'sigma-sonnet-4-6', 'omega-k3'])('answers `codex exec` on %s, and the session is charged', async (model) => {
    const before = await ledgerSize();
    const run = await runCodex(stack.baseURL, key, 'Say hi', { cwd: work, model });
    expect(run.code).toBe(0);
    expect(run.events.map((e) => e.type)).toContain('turn.completed');
    expect(agentText(run.events).length).toBeGreaterThan(0);
    expect((await charged(before, 1)).map((e) => e.model)).toEqual([model]);
  });

  it('runs a shell command through its loop and answers with its output', async () => {
    const before = await ledgerSize();
    const run = await runCodex(stack.baseURL, key, 'Run the command `cat notes.txt` and tell me what it printed.', {
      cwd: work,
      model: 'gamma-2.5-flash',
    });
    expect(run.code).toBe(0);
    const command = run.events.find((e) => e.type === 'item.completed' && e.item?.type === 'command_execution');
    expect(command?.item).toMatchObject({ exit_code: 0, aggregated_output: `${SECRET}\n` });
    expect(agentText(run.events)).toContain(SECRET);
    expect((await charged(before, 2)).map((e) => e.model)).toEqual(['gamma-2.5-flash', 'gamma-2.5-flash']);
  });

  it('works as its own OpenAI provider pointed at the gateway (openai_base_url), over the Responses WebSocket', async () => {
    const before = await ledgerSize();
    const sockets = async () => metricSum(await scrapeMetrics(stack.origin, stack.adminToken), 'unigate_websocket_connections_total');
    const socketsBefore = await sockets();
    const run = await runCodex(stack.baseURL, key, 'Run the command `cat notes.txt` and tell me what it printed.', {
      cwd: work,
      model: 'gamma-2.5-flash',
      provider: 'openai',
    });
    expect(run.code).toBe(0);
    // No "Reconnecting… n/5" and no fall-back to HTTP: it prewarms the socket (generate: false), asks for
    // the tool call, then sends only the tool's output with previous_response_id (store: false).
    expect(run.events.filter((e) => e.type === 'error')).toEqual([]);
    expect(run.stderr).not.toMatch(/websocket/i);
    expect(await sockets()).toBeGreaterThan(socketsBefore);
    expect(agentText(run.events)).toContain(SECRET);
    // Two answers billed; the prewarm costs nothing.
    expect((await charged(before, 2)).map((e) => e.model)).toEqual(['gamma-2.5-flash', 'gamma-2.5-flash']);
  });

  // With its own OpenAI provider Codex compacts remotely: a request ending in a compaction_trigger, answered
  // with one compaction item that it sends back in place of the conversation. A limit of 200 tokens
  // compacts after every answer, here between the tool call and the answer to its result.
  it.each(['gamma-2.5-flash', 'sigma-sonnet-4-6', 'omega-k3'])(
    'compacts mid-turn on %s (model_auto_compact_token_limit) and answers from the summary',
    async (model) => {
      await fetch(`${stack.simUrl}/_sim/requests`, { method: 'DELETE' });
      const run = await runCodex(stack.baseURL, key, 'Run the command `cat notes.txt` and tell me what it printed.', {
        cwd: work,
        model,
        provider: 'openai',
        config: ['model_auto_compact_token_limit = 200'],
      });
      expect(run.code).toBe(0);
      expect(run.events.filter((e) => e.type === 'error' || e.type === 'turn.failed')).toEqual([]);
      expect(agentText(run.events)).toContain(SECRET);
      const upstream = ((await (await fetch(`${stack.simUrl}/_sim/requests`)).json()) as { data: unknown[] }).data.map((r) =>
        JSON.stringify(r),
      );
      const compacting = upstream.findIndex((r) => r.includes(JSON.stringify(COMPACTION_PROMPT).slice(1, 40)));
      expect(compacting).toBeGreaterThanOrEqual(0);
      // After it, the upstream reads the summary, and no compaction item.
      expect(upstream.slice(compacting + 1).some((r) => r.includes(JSON.stringify(SUMMARY_PREFIX).slice(1, -1)))).toBe(true);
      expect(upstream.join('\n')).not.toContain(OWN_COMPACTION_PREFIX);
    },
  );

  it('reports a wrong key as an authentication error', async () => {
    const run = await runCodex(stack.baseURL, WRONG_KEY, 'Say hi', { cwd: work, model: 'gamma-2.5-flash' });
    expect(run.code).not.toBe(0);
    const failed = run.events.find((e) => e.type === 'turn.failed');
    expect(failed?.error?.message).toMatch(/401 Unauthorized/);
  });
});
