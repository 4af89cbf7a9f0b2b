/** Shared by the deploy tests: repo paths, running CLI tools, parsing YAML streams. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const ROOT = resolve(__dirname, '..', '..');
export const HELM = join(ROOT, 'tools', 'bin', 'helm');
export const CHART = join(ROOT, 'helm', 'unigate');
/** Prometheus' rule checker (`.ci/run` installs it from Debian's prometheus package). */
export const PROMTOOL = process.env.PROMTOOL ?? 'promtool';
/** The Prometheus server, for the dashboard's queries against a real deployment (installed beside promtool). */
export const PROMETHEUS = process.env.PROMETHEUS ?? 'prometheus';

/** Every workload of the distributed deployment, as named in compose and the chart. */
export const SERVICES = ['chat', 'billing', 'catalog', 'media', 'video'] as const;
export const WORKLOADS = ['edge', ...SERVICES, 'upstream-sim'] as const;

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  return new Promise((resolvePromise) => {
    execFile(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 127) : 0;
      resolvePromise({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** tools/bin/helm, extracted by scripts/install-helm.mjs when missing (idempotent). */
export async function ensureHelm(): Promise<string> {
  const result = await run(process.execPath, [join(ROOT, 'scripts', 'install-helm.mjs')]);
  if (result.code !== 0 || !existsSync(HELM)) {
    throw new Error(`scripts/install-helm.mjs failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
  return HELM;
}

// Kubernetes manifests are loosely typed on purpose: the tests check their shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Manifest = Record<string, any>;

/** The release and namespace the deploy tests render the chart as. */
export const RELEASE = 'rel';
export const NAMESPACE = 'gw';

/** `helm template` of the chart with `args` (values), parsed; a failed render throws its stderr. */
export async function renderChart(helm: string, ...args: string[]): Promise<Manifest[]> {
  const result = await run(helm, ['template', RELEASE, CHART, '--namespace', NAMESPACE, ...args]);
  if (result.code !== 0) throw new Error(`helm template failed:\n${result.stderr}`);
  return parseYamlStream(result.stdout);
}

export function parseYamlStream(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`invalid YAML: ${doc.errors.map((e) => e.message).join('; ')}`);
      return doc.toJS() as Manifest | null;
    })
    .filter((m): m is Manifest => m !== null && typeof m === 'object');
}
