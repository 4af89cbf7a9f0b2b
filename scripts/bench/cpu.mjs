/**
 * CPU time of a target's processes per answered request, window by window: the no-decay run's check on
 * its own throughput. A gateway that slows down as requests accumulate (a plan or a table that
 * degrades) spends more CPU on each request as the run goes on, and the simulator, whose work per
 * request never changes, does not; a host that slows down (other guests, a cache-hungry neighbour)
 * moves both alike: neither, when it only takes CPU time away, or both, when it makes the same work
 * slower.
 */
import { readFileSync } from 'node:fs';

/** Linux reports /proc/<pid>/stat times in USER_HZ ticks: 100 a second on every architecture it runs on. */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system, all its threads) a process has used so far, in microseconds; undefined when it is gone or not on Linux. */
export function cpuMicros(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: the fields are counted after its last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 (utime, stime) of proc(5), counted from field 3 here.
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * Reads the CPU time of `processes` now and at each `mark()`: `between(i)` is what each used between
 * reading i and reading i + 1, by process name (undefined for a process it could not read).
 */
export function cpuReadings(processes) {
  const read = () => Object.fromEntries(processes.map((p) => [p.name, cpuMicros(p.pid)]));
  const readings = [read()];
  return {
    mark: () => void readings.push(read()),
    count: () => readings.length,
    between(i) {
      const [from, to] = [readings[i], readings[i + 1]];
      if (!from || !to) return undefined;
      return Object.fromEntries(
        processes.map(({ name }) => [name, from[name] === undefined || to[name] === undefined ? undefined : to[name] - from[name]]),
      );
    },
  };
}

/** Microseconds of CPU per answered request, by process name, from a window's CPU use and its answers (none: undefined). */
export function perRequest(cpuUs, answers) {
  if (!cpuUs || answers <= 0) return undefined;
  return Object.fromEntries(Object.entries(cpuUs).map(([name, us]) => [name, us === undefined ? undefined : Math.round(us / answers)]));
}
