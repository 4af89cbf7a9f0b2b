/** Where and on what the numbers were taken: the commit, the machine and how busy it was. */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem } from 'node:os';

function git(root, args) {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

export function environment(root) {
  const cpu = cpus();
  return {
    commit: git(root, ['rev-parse', '--short', 'HEAD']) || 'unknown',
    // Uncommitted changes to tracked files: the numbers are then not exactly the commit's.
    dirty: git(root, ['status', '--porcelain', '--untracked-files=no']) !== '',
    cpus: cpu.length,
    cpuModel: cpu[0]?.model ?? 'unknown',
    memGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    kernel: release(),
    loadavgAtStart: loadavg().map((l) => Number(l.toFixed(2))),
  };
}

export const loadavgNow = () => loadavg().map((l) => Number(l.toFixed(2)));
