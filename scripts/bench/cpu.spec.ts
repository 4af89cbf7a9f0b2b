/**
 * The CPU readings the no-decay run takes of each process: this process's own time, counted from
 * /proc, grows by the work it does; a process that is gone reads as nothing, not as zero.
 */
import { cpuMicros, cpuReadings, perRequest } from './cpu.mjs';

/** Works until this process has used `ms` more milliseconds of CPU (however long a busy machine takes to give them). */
function spin(ms: number): void {
  const start = process.cpuUsage();
  for (let used = process.cpuUsage(start); used.user + used.system < ms * 1000; used = process.cpuUsage(start));
}

test("reads a process's CPU time as the kernel counts it for the process, all its threads", () => {
  const micros = (u: NodeJS.CpuUsage) => u.user + u.system;
  // getrusage read on each side of each /proc read: the process's other threads (GC, the thread pool)
  // keep working between two reads, which on a loaded host put 29 ms between them (a fresh-clone CI).
  const outerStart = process.cpuUsage();
  const before = cpuMicros(process.pid)!;
  const innerStart = process.cpuUsage();
  spin(300);
  const inner = micros(process.cpuUsage(innerStart));
  const after = cpuMicros(process.pid)!;
  const outer = micros(process.cpuUsage(outerStart));
  expect(before).toBeGreaterThan(0);
  // The same time as getrusage counts it, to the 10 ms ticks /proc gives it in (one at each end).
  expect(after - before).toBeGreaterThanOrEqual(inner - 20_000);
  expect(after - before).toBeLessThanOrEqual(outer + 20_000);
});

test('a process that is gone reads as undefined', () => {
  expect(cpuMicros(2 ** 22 + 12345)).toBeUndefined();
});

test('readings give what each process used between two marks, and per answer', () => {
  const readings = cpuReadings([
    { name: 'self', pid: process.pid },
    { name: 'gone', pid: 2 ** 22 + 12345 },
  ]);
  spin(200);
  readings.mark();
  readings.mark();
  expect(readings.count()).toBe(3);
  const first = readings.between(0)!;
  expect(first.self).toBeGreaterThanOrEqual(150_000);
  expect(first.gone).toBeUndefined();
  expect(readings.between(1)!.self).toBeLessThan(50_000);
  expect(readings.between(2)).toBeUndefined();
  expect(perRequest({ self: 200_000, gone: undefined }, 400)).toEqual({ self: 500, gone: undefined });
  expect(perRequest({ self: 200_000 }, 0)).toBeUndefined();
});
