/**
 * Resident memory of a target's processes (VmRSS from /proc/<pid>/status), sampled on an interval while
 * the target is measured: the maximum, and the last sample, taken when its last load run has ended.
 */
import { readFileSync } from 'node:fs';

export function rssMiB(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined; // gone, or not Linux
  }
}

export function watchRss(processes, intervalMs) {
  const stats = processes.map((p) => ({ name: p.name, pid: p.pid, maxMiB: 0, endMiB: undefined, samples: 0 }));
  const sample = () => {
    for (const s of stats) {
      const mib = rssMiB(s.pid);
      if (mib === undefined) continue;
      s.maxMiB = Math.max(s.maxMiB, mib);
      s.endMiB = mib;
      s.samples += 1;
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  let stopped = false;
  return {
    /** Takes a last sample and stops (once; later calls return the same numbers). */
    stop() {
      if (!stopped) {
        stopped = true;
        clearInterval(timer);
        sample();
      }
      return stats;
    },
  };
}
