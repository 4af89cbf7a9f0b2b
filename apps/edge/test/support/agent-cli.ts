/**
 * Runs the real coding-agent CLIs installed from npm (root devDependencies) against a deployment:
 * Claude Code through the launcher that finds its platform binary (`cli-wrapper.cjs`: its own
 * postinstall is denied, docs/development.md) and Codex through its `bin/codex.js`.
 *
 * Each run is isolated and bounded: a fresh HOME (and CODEX_HOME), only PATH inherited, a proxy that
 * goes nowhere for every host but loopback — so the only traffic that can succeed is to the gateway —
 * and a timeout that kills the whole process group.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const CLAUDE_LAUNCHER = join(dirname(require.resolve('@anthropic-ai/claude-code/package.json')), 'cli-wrapper.cjs');
export const CODEX_LAUNCHER = join(dirname(require.resolve('@openai/codex/package.json')), 'bin', 'codex.js');

/** Nothing listens on the discard port: a request that is not for loopback fails at once. */
const NOWHERE = 'http://127.0.0.1:9';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The environment every run starts from: nothing of the host's but PATH. */
export function isolatedEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    HTTPS_PROXY: NOWHERE,
    HTTP_PROXY: NOWHERE,
    ALL_PROXY: NOWHERE,
    NO_PROXY: '127.0.0.1,localhost',
  };
}

export function runCli(
  script: string,
  args: string[],
  opts: { env: Record<string, string>; cwd: string; timeoutMs: number; stdin?: string },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    // Ended at once: a client that reads its input (codex exec does) sees the end, not a wait.
    child.stdin.end(opts.stdin);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      reject(new Error(`${script} timed out after ${opts.timeoutMs} ms\nstdout: ${stdout.slice(-2000)}\nstderr: ${stderr.slice(-2000)}`));
    }, opts.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `claude -p <prompt> --output-format json`: its JSON result. */
export interface ClaudeResult {
  is_error: boolean;
  result: string;
  api_error_status: number | null;
  num_turns: number;
}

export interface ClaudeAuth {
  /** Sent as `Authorization: Bearer` (ANTHROPIC_AUTH_TOKEN) or `x-api-key` (ANTHROPIC_API_KEY). */
  variable: 'ANTHROPIC_AUTH_TOKEN' | 'ANTHROPIC_API_KEY';
  key: string;
}

export async function runClaude(
  origin: string,
  auth: ClaudeAuth,
  prompt: string,
  opts: { cwd: string; model?: string; timeoutMs?: number; env?: Record<string, string>; debugFile?: string },
): Promise<ClaudeResult> {
  const home = tempDir('unigate-claude-home-');
  const env = {
    ...isolatedEnv(home),
    ANTHROPIC_BASE_URL: origin,
    [auth.variable]: auth.key,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    ...opts.env,
  };
  const args = [
    '-p',
    prompt,
    '--output-format',
    'json',
    ...(opts.model ? ['--model', opts.model] : []),
    ...(opts.debugFile ? ['--debug', '--debug-file', opts.debugFile] : []),
  ];
  const run = await runCli(CLAUDE_LAUNCHER, args, { env, cwd: opts.cwd, timeoutMs: opts.timeoutMs ?? 45_000 });
  try {
    return JSON.parse(run.stdout) as ClaudeResult;
  } catch {
    throw new Error(
      `claude did not answer JSON (exit ${run.code})\nstdout: ${run.stdout.slice(-2000)}\nstderr: ${run.stderr.slice(-2000)}`,
    );
  }
}

/** One line of `codex exec --json`. */
export type CodexEvent = {
  type: string;
  item?: { type: string; text?: string; aggregated_output?: string; exit_code?: number | null };
  error?: { message: string };
  /** An `error` line's text (a reconnection, say). */
  message?: string;
  usage?: unknown;
};

export interface CodexRun extends CliRun {
  events: CodexEvent[];
}

/** What Codex said to the user in a run: its agent messages, one per line. */
export const agentText = (events: CodexEvent[]): string =>
  events.flatMap((e) => (e.type === 'item.completed' && e.item?.type === 'agent_message' ? [e.item.text ?? ''] : [])).join('\n');

/**
 * `codex exec` with a `model_providers` entry for the gateway (wire_api = "responses", the only one
 * this version speaks) in a fresh CODEX_HOME; retries off so a failure shows at once.
 */
export async function runCodex(
  baseURL: string,
  key: string,
  prompt: string,
  opts: { cwd: string; model: string; timeoutMs?: number; provider?: 'custom' | 'openai'; config?: readonly string[] },
): Promise<CodexRun> {
  const home = tempDir('unigate-codex-home-');
  const env = { ...isolatedEnv(home), CODEX_HOME: home, UNIGATE_API_KEY: key };
  const timeoutMs = opts.timeoutMs ?? 45_000;
  if (opts.provider === 'openai') {
    // Codex's own OpenAI provider pointed at the gateway; its key is the one `codex login` saves.
    writeFileSync(
      join(home, 'config.toml'),
      [`model = "${opts.model}"`, `openai_base_url = "${baseURL}"`, ...(opts.config ?? []), ''].join('\n'),
    );
    const login = await runCli(CODEX_LAUNCHER, ['login', '--with-api-key'], { env, cwd: opts.cwd, timeoutMs, stdin: key });
    if (login.code !== 0) throw new Error(`codex login failed (exit ${login.code}): ${login.stderr.slice(-2000)}`);
  } else {
    writeFileSync(join(home, 'config.toml'), [...(opts.config ?? []), codexConfig(baseURL, opts.model)].join('\n'));
  }
  const args = ['exec', '--skip-git-repo-check', '--json', '--ephemeral', prompt];
  const run = await runCli(CODEX_LAUNCHER, args, { env, cwd: opts.cwd, timeoutMs });
  const events = run.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as CodexEvent);
  return { ...run, events };
}

/** The configuration docs/coding-agents.md gives operators. */
export function codexConfig(baseURL: string, model: string): string {
  return [
    `model = "${model}"`,
    'model_provider = "unigate"',
    '',
    '[model_providers.unigate]',
    'name = "Unigate"',
    `base_url = "${baseURL}"`,
    'env_key = "UNIGATE_API_KEY"',
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
  ].join('\n');
}
