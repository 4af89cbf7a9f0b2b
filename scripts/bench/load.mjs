/**
 * Load from this process with autocannon: `connections` keep-alive connections, each sending its next
 * request as soon as the previous answer is complete (for a stream: its last byte). Latencies are
 * taken from every answer (autocannon's own histogram rounds to whole milliseconds), and answers are
 * counted per window so a long run shows whether throughput holds.
 */
import { createRequire } from 'node:module';
import { cpuReadings, perRequest } from './cpu.mjs';
import { CHAT_PATH, chatBody } from './requests.mjs';
import { summarize } from './stats.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');

/**
 * Runs `seconds` of load. With `windows`, also returns the answers per second of each of that many
 * equal windows, and within each window the answers of each whole second it holds (`perSecond`: the
 * samples the no-decay verdict's interval is drawn from), and with `cpuOf` (processes: { name, pid }) the
 * CPU each of them spent per answer in that window (`cpuUsPerRequest`, cpu.mjs). Latency summaries are in
 * microseconds, of 2xx answers only.
 */
export function loadRun(
  target,
  config,
  { stream, seconds, windows = 0, cpuOf = /** @type {Array<{ name: string, pid: number }>} */ ([]) },
) {
  const latenciesUs = [];
  const statuses = {};
  const windowMs = windows > 0 ? (seconds * 1000) / windows : 0;
  const perWindow = new Array(windows).fill(0);
  const perSecond = new Array(windows > 0 ? Math.ceil(seconds) : 0).fill(0);
  const started = performance.now();
  // A reading at the start and at the end of each window (a timer: late by an event-loop turn, nothing against a window of seconds).
  const cpu = windows > 0 && cpuOf.length > 0 ? cpuReadings(cpuOf) : undefined;
  let cpuTimer;
  const markNextWindow = () => {
    const due = started + cpu.count() * windowMs - performance.now();
    cpuTimer = setTimeout(
      () => {
        cpu.mark();
        if (cpu.count() <= windows) markNextWindow();
      },
      Math.max(0, due),
    );
  };
  if (cpu) markNextWindow();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${target.origin}${CHAT_PATH}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...target.headers },
        body: chatBody(config, stream),
        connections: config.connections,
        duration: seconds,
      },
      (err, result) => {
        clearTimeout(cpuTimer);
        if (err) return reject(err);
        // The last window's end, when autocannon finished before its timer.
        while (cpu && cpu.count() <= windows) cpu.mark();
        const ok = latenciesUs.length;
        resolve({
          seconds: result.duration,
          rps: ok / result.duration,
          ok,
          latency: summarize(latenciesUs),
          statuses,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
          ...(windows > 0 && {
            windows: perWindow.map((count, i) => ({
              from: (i * windowMs) / 1000,
              to: ((i + 1) * windowMs) / 1000,
              rps: count / (windowMs / 1000),
              // The whole seconds inside this window (none when a window is shorter than a second).
              perSecond: perSecond.filter((_, sec) => sec * 1000 >= i * windowMs && (sec + 1) * 1000 <= (i + 1) * windowMs),
              ...(cpu && { cpuUsPerRequest: perRequest(cpu.between(i), count) }),
            })),
          }),
        });
      },
    );
    instance.on('response', (_client, status, _bytes, responseTimeMs) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status < 200 || status >= 300) return;
      latenciesUs.push(responseTimeMs * 1000);
      if (windows > 0) {
        const elapsed = performance.now() - started;
        const i = Math.floor(elapsed / windowMs);
        if (i < windows) perWindow[i] += 1;
        const sec = Math.floor(elapsed / 1000);
        if (sec < perSecond.length) perSecond[sec] += 1;
      }
    });
  });
}
