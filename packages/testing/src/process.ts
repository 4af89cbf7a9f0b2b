import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { waitForHttp } from './net';

export interface StartNodeProcessOptions {
  /** Label used in errors and log lines. */
  name: string;
  /** Path of the script run as `node <script>`. */
  script: string;
  /** Added to (and overriding) this process's environment; `undefined` removes an inherited variable. */
  env?: Record<string, string | undefined>;
  args?: string[];
  cwd?: string;
  /** When set, start resolves only once this URL answers 200 (e.g. http://127.0.0.1:PORT/health/ready). */
  readyUrl?: string;
  /** How long to wait for readyUrl (default 30 s). */
  timeoutMs?: number;
  /** stop(): how long to wait after its signal before SIGKILL (default 5 s). */
  graceMs?: number;
}

export interface NodeProcess {
  name: string;
  pid: number;
  /**
   * `signal` (default SIGTERM), then SIGKILL after the grace period; resolves once the process has
   * exited. Idempotent: a second call waits for the first.
   */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** SIGKILL at once (a crash: no shutdown hook runs); resolves once the process has exited. */
  kill(): Promise<void>;
  /** Everything the process wrote to stdout and stderr so far (the last 1–2 MB), for failure messages. */
  logs(): string;
  /** Exit code or signal once the process has exited, else undefined. */
  exited(): string | undefined;
}

const LOG_LIMIT = 1024 * 1024;
const WATCHDOG = join(__dirname, '..', 'jest', 'parent-watchdog.js');
const running = new Set<NodeProcess>();

function buildEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  env.UNIGATE_TEST_OWNER_PID = String(process.pid);
  return env;
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Spawns `node <script>` with the given env, captures its output and waits until readyUrl answers 200.
 * Fails fast (with the process's output in the error) if it exits or never becomes ready. Every process
 * started here dies with the jest worker that started it (see jest/parent-watchdog.js).
 */
export async function startNodeProcess(options: StartNodeProcessOptions): Promise<NodeProcess> {
  const { name, script, readyUrl, timeoutMs = 30_000, graceMs = 5_000 } = options;
  const child = spawn(process.execPath, ['--require', WATCHDOG, script, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: buildEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const echo = process.env.UNIGATE_TEST_ECHO_LOGS === '1';
  const capture = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    // Trimmed once it doubles: trimming at every chunk past the limit copied a megabyte per chunk, and
    // a gateway under load (one access line a request) made the reader fall behind its pipe.
    if (output.length > 2 * LOG_LIMIT) output = output.slice(-LOG_LIMIT);
    if (echo) process.stderr.write(`[${name}] ${chunk.toString('utf8')}`);
  };
  child.stdout?.on('data', capture);
  child.stderr?.on('data', capture);
  let spawnError: Error | undefined;
  child.once('error', (err) => (spawnError = err));
  const exited = () =>
    spawnError
      ? `spawn failed: ${spawnError.message}`
      : child.exitCode !== null
        ? `exit code ${child.exitCode}`
        : child.signalCode !== null
          ? `signal ${child.signalCode}`
          : undefined;

  let stopping: Promise<void> | undefined;
  const handle: NodeProcess = {
    name,
    pid: child.pid ?? -1,
    logs: () => output,
    exited,
    kill: async () => {
      if (!exited()) child.kill('SIGKILL');
      await waitExit(child, 5_000);
      running.delete(handle);
    },
    stop: (signal = 'SIGTERM') => {
      stopping ??= (async () => {
        if (!exited()) {
          child.kill(signal);
          if (!(await waitExit(child, graceMs))) {
            child.kill('SIGKILL');
            await waitExit(child, 5_000);
          }
        }
        running.delete(handle);
      })();
      return stopping;
    },
  };
  running.add(handle);
  // A test that forgets stop() must not hold its jest worker open; the watchdog still ends the child.
  child.unref();
  (child.stdout as unknown as { unref?: () => void } | null)?.unref?.();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();

  try {
    if (readyUrl) await waitForHttp(readyUrl, timeoutMs, exited);
    else await new Promise((resolve) => setTimeout(resolve, 50));
    const reason = exited();
    if (reason) throw new Error(reason);
  } catch (err) {
    await handle.stop();
    const tail = output.slice(-8000).trimEnd();
    throw new Error(
      `${name} (node ${script}) did not become ready: ${(err as Error).message}\n--- ${name} output ---\n${tail || '(none)'}`,
    );
  }
  return handle;
}

/** Stops every process this worker started and has not stopped yet (handy in afterAll). */
export async function stopAllNodeProcesses(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop()));
}
