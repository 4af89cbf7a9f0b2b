/**
 * Sequential latency: one keep-alive connection per target, one request at a time, timed with the
 * monotonic high-resolution clock (microseconds). For a gateway target every request is paired with
 * one straight to the simulator, alternating which goes first, so the overhead (gateway minus direct)
 * compares samples taken in the same seconds: on shared cores the floor itself drifts from minute to
 * minute, and a floor measured once, minutes earlier, would move the overhead by as much as it measures.
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { CHAT_PATH, chatBody } from './requests.mjs';
import { summarize } from './stats.mjs';

const MAX_ERRORS = 50;
const sinceUs = (start, at) => Number(at - start) / 1000;

/** A client for one target: its own agent holding exactly one connection. */
export function client(target, body) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(CHAT_PATH, target.origin);
  const headers = { 'content-type': 'application/json', 'content-length': String(body.length), ...target.headers };
  /**
   * Resolves { status, firstByteUs, totalUs, reportedUs }: when the first body byte and the last one
   * arrived, and the overhead the gateway says it added (`x-unigate-overhead-ms`, when it says).
   */
  const send = () =>
    new Promise((resolve, reject) => {
      const start = process.hrtime.bigint();
      const request = http.request(url, { method: 'POST', agent, headers }, (response) => {
        let first;
        response.on('data', () => (first ??= process.hrtime.bigint()));
        response.once('end', () => {
          const end = process.hrtime.bigint();
          const reported = response.headers['x-unigate-overhead-ms'];
          resolve({
            status: response.statusCode,
            firstByteUs: sinceUs(start, first ?? end),
            totalUs: sinceUs(start, end),
            reportedUs: reported === undefined ? undefined : Number(reported) * 1000,
          });
        });
        response.once('error', reject);
      });
      request.once('error', reject);
      request.end(body);
    });
  return { send, close: () => agent.destroy() };
}

/** Samples of one side of the run, and its failures. */
function recorder() {
  const firstByte = [];
  const total = [];
  const reported = [];
  const failures = { count: 0, last: undefined };
  return {
    firstByte,
    total,
    failures,
    async take(send, keep) {
      try {
        const r = await send();
        if (r.status !== 200) throw new Error(`HTTP ${r.status}`);
        if (keep) {
          firstByte.push(r.firstByteUs);
          total.push(r.totalUs);
          if (r.reportedUs !== undefined) reported.push(r.reportedUs);
        }
      } catch (err) {
        failures.count += 1;
        failures.last = err.message;
        if (failures.count > MAX_ERRORS) throw new Error(`more than ${MAX_ERRORS} failed requests (last: ${err.message})`);
      }
    },
    summary: () => ({
      firstByte: summarize(firstByte),
      total: summarize(total),
      ...(reported.length > 0 && { reported: summarize(reported) }),
      failures: failures.count,
      lastFailure: failures.last,
    }),
  };
}

/**
 * `count` requests (at most `maxSeconds`) to `target`, after `warmup` unrecorded ones; paired with
 * direct ones when `direct` is given. `kase`: { stream, large (the coding agent's 60 KB prompt),
 * pauseMs (idle time before each request, recorded ones and warm-up alike), count }.
 * Returns { target, direct? } summaries in microseconds.
 */
export async function sequentialRun(target, direct, config, kase) {
  const { stream = false, large = false, pauseMs = 0, count } = kase;
  const body = Buffer.from(chatBody(config, stream, large));
  const sides = [{ client: client(target, body), rec: recorder() }];
  if (direct) sides.push({ client: client(direct, body), rec: recorder() });
  try {
    const round = async (i, keep) => {
      const order = i % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        if (pauseMs > 0) await sleep(pauseMs);
        await side.rec.take(side.client.send, keep);
      }
    };
    for (let i = 0; i < config.sequential.warmup; i++) await round(i, false);
    const deadline = performance.now() + config.sequential.maxSeconds * 1000;
    for (let i = 0; i < count && performance.now() < deadline; i++) await round(i, true);
  } finally {
    for (const side of sides) side.client.close();
  }
  const [own, floor] = sides.map((side) => side.rec.summary());
  return { target: own, ...(floor ? { direct: floor } : {}) };
}
