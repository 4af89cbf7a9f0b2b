import { Writable } from 'node:stream';
import { errors, GatewayError, type Channel, type ModelInfo, type ModelRoute } from '@unigate/contracts';
import { createLogger } from '../logger';
import { upstreamDuration } from './metrics';
import { upstreamObservers } from './upstream-observer';

const channel = {
  id: 'primary',
  protocol: 'openai-chat',
  base_url: 'https://llm.internal',
  upstream_model: 'm',
  priority: 0,
  weight: 1,
} as Channel;
const route: ModelRoute = { model: { id: 'omega-k3' } as ModelInfo, channels: [channel] };

/** The observers over a logger whose lines this returns. */
function observed() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { observers: upstreamObservers(createLogger('spec', 'debug', sink)), lines };
}

describe('upstreamObservers.onAttempt', () => {
  it("logs a failed attempt with its request id and the system error behind the client's message", async () => {
    const { observers, lines } = observed();
    const failure = errors.upstream(502, 'upstream request failed: the upstream refused the connection (ECONNREFUSED)', true);
    Object.defineProperty(failure, 'cause', { value: new Error('connect ECONNREFUSED 10.0.3.7:443') });
    observers.onAttempt(route, channel, 'retryable_error', failure, 'req_abc');
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: 'upstream attempt failed',
        request_id: 'req_abc',
        model: 'omega-k3',
        channel: 'primary',
        err: expect.objectContaining({ message: failure.message }),
        cause: expect.objectContaining({ message: 'connect ECONNREFUSED 10.0.3.7:443' }),
      }),
    ]);
  });

  it('logs a cancelled attempt at debug only, with its request id', async () => {
    const { observers, lines } = observed();
    observers.onAttempt(route, channel, 'cancelled', new Error('client left'), 'req_def');
    observers.onAttempt(route, channel, 'ok', undefined, 'req_ghi');
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual([expect.objectContaining({ level: 'debug', request_id: 'req_def' })]);
  });

  it("logs an upstream's refusal of the request at info, with the upstream's status, not as a failure", async () => {
    const { observers, lines } = observed();
    const refused = new GatewayError({ status: 400, code: 'invalid_request_error', message: 'prompt is too long', upstreamStatus: 400 });
    observers.onAttempt(route, channel, 'rejected', refused, 'req_mno');
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'upstream rejected the request',
        request_id: 'req_mno',
        upstream_status: 400,
        err: expect.objectContaining({ message: 'prompt is too long' }),
      }),
    ]);
  });

  it('logs a request the adapter refused at debug only: its access line has the 400', async () => {
    const { observers, lines } = observed();
    observers.onAttempt(route, channel, 'invalid_request', errors.invalidRequest('tool call arguments must be a JSON object'), 'req_jkl');
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'debug',
        request_id: 'req_jkl',
        err: expect.objectContaining({ message: 'tool call arguments must be a JSON object' }),
      }),
    ]);
  });

  it("times the answers by model and channel, not the failures (a failure's time is how long it took to fail)", async () => {
    const { observers } = observed();
    const count = async () =>
      (await upstreamDuration.get()).values.find(
        (v) =>
          v.metricName === 'unigate_upstream_response_seconds_count' && v.labels.model === 'omega-k3' && v.labels.channel === 'primary',
      )?.value ?? 0;
    const sum = async () =>
      (await upstreamDuration.get()).values.find(
        (v) => v.metricName === 'unigate_upstream_response_seconds_sum' && v.labels.model === 'omega-k3' && v.labels.channel === 'primary',
      )?.value ?? 0;
    const [countBefore, sumBefore] = [await count(), await sum()];
    observers.onAttempt(route, channel, 'ok', undefined, 'req_1', 1_250);
    observers.onAttempt(route, channel, 'retryable_error', errors.upstream(502, 'reset', true), 'req_2', 30_000);
    observers.onAttempt(route, channel, 'cancelled', new Error('client left'), 'req_3', 400);
    expect(await count()).toBe(countBefore + 1);
    expect(await sum()).toBeCloseTo(sumBefore + 1.25, 6);
  });
});
