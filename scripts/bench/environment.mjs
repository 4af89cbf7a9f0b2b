/** Where and on what the numbers were taken: the commit, the machine and how busy it was. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

/** The machine's CPU time counters (Linux /proc/stat, in ticks), or undefined where there are none. */
function cpuTimes() {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal = 0] = readFileSync('/proc/stat', 'utf8')
      .split('\n', 1)[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return { idle: idle + iowait, steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
  } catch {
    return undefined;
  }
}

/**
 * What the host's CPUs did between two cpuTimes() readings, in percent of their time: `steal`, taken by
 * the hypervisor for other guests (a number that moves a run's figures without anything here changing),
 * and `busy`, all work on this machine, the bench's own included.
 */
function hostCpuBetween(before, after) {
  const total = after && before ? after.total - before.total : 0;
  if (total <= 0) return undefined;
  const pct = (ticks) => Number(((100 * ticks) / total).toFixed(1));
  return { steal: pct(after.steal - before.steal), busy: pct(total - (after.idle - before.idle)) };
}

/** `measure()`'s result, with `hostCpu`: what the host's CPUs did while it ran (hostCpuBetween). */
export async function withHostCpu(measure) {
  const before = cpuTimes();
  const result = await measure();
  return { ...result, hostCpu: hostCpuBetween(before, cpuTimes()) };
}
