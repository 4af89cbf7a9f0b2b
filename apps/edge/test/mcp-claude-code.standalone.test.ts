/**
 * docs/mcp.md's Claude Code instructions with the real CLI (root devDependency): a server added with
 * `claude mcp add --transport http … --header "Authorization: Bearer sk-…"` passes Claude Code's
 * health check; one with a wrong key is reported as refused with the gateway's 401 message.
 */
import { CLAUDE_LAUNCHER, isolatedEnv, runCli, tempDir } from './support/agent-cli';
import type { Stack } from './support/stacks';
import { startStandalone } from './support/stacks';
import { useStack } from './support/use-stack';

describe('standalone: Claude Code connects to the MCP server', () => {
  let stack: Stack;
  useStack(startStandalone, (s) => (stack = s));

  it('`claude mcp add --transport http` with the key connects; a wrong key is refused with the 401 message', async () => {
    const home = tempDir('unigate-claude-mcp-');
    const env = { ...isolatedEnv(home), CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1' };
    const claude = (...args: string[]) => runCli(CLAUDE_LAUNCHER, args, { env, cwd: home, timeoutMs: 60_000 });
    const add = (name: string, key: string) =>
      claude('mcp', 'add', '--transport', 'http', name, `${stack.origin}/mcp`, '--header', `Authorization: Bearer ${key}`);

    expect((await add('unigate', stack.apiKey)).code).toBe(0);
    expect((await add('wrongkey', 'sk-wrong')).code).toBe(0);
    const list = await claude('mcp', 'list');
    expect(list.code).toBe(0);
    const line = (name: string) => list.stdout.split('\n').find((l) => l.startsWith(`${name}:`)) ?? list.stdout;
    expect(line('unigate')).toMatch(/Connected/);
    expect(line('wrongkey')).toMatch(/401/);
    expect(line('wrongkey')).toContain('Incorrect API key provided.');
  }, 120_000);
});
