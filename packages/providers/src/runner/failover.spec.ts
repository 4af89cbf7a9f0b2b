/**
 * Channel failover: the next channel only after a retryable failure, each attempt's outcome told to
 * the observer, and a caller that left neither failed over nor counted as the upstream's failure.
 */
import { errors, type Channel, type ModelRoute } from '@unigate/contracts';
import { upstreamHttpError } from '../http/upstream-errors';
import { withFailover, type AttemptOutcome } from './failover';

const channel = (id: string): Channel => ({
  id,
  protocol: 'openai-chat',
  base_url: `http://${id}.invalid/v1`,
  api_key: '',
  upstream_model: 'm',
  priority: 0,
  weight: 1,
});
const route: ModelRoute = {
  model: { id: 'm', family: 'omega', kind: 'chat', owned_by: 'omega', created: 1, prices: { input_per_mtok: 1, output_per_mtok: 1 } },
  channels: [channel('a'), channel('b')],
};

function observed() {
  const outcomes: Array<[string, AttemptOutcome]> = [];
  return { outcomes, observe: (_r: ModelRoute, c: Channel, outcome: AttemptOutcome) => outcomes.push([c.id, outcome]) };
}

test('a retryable failure moves on to the next channel; the answer comes from it', async () => {
  const { outcomes, observe } = observed();
  const answer = await withFailover(
    route,
    async (c) => {
      if (c.id === 'a') throw errors.upstream(503, 'busy', true);
      return c.id;
    },
    observe,
  );
  expect(answer).toBe('b');
  expect(outcomes).toEqual([
    ['a', 'retryable_error'],
    ['b', 'ok'],
  ]);
});

test('a failure that is not retryable ends the call at the first channel', async () => {
  const { outcomes, observe } = observed();
  const broken = errors.upstream(502, 'upstream stream failed midway', false);
  await expect(withFailover(route, () => Promise.reject(broken), observe)).rejects.toBe(broken);
  expect(outcomes).toEqual([['a', 'error']]);
});

test("an upstream's 4xx about the request ends the call too, rejected: not the upstream's failure", async () => {
  const { outcomes, observe } = observed();
  const refused = upstreamHttpError({ detail: () => undefined }, 400, '{"error":"no"}');
  await expect(withFailover(route, () => Promise.reject(refused), observe)).rejects.toBe(refused);
  expect(outcomes).toEqual([['a', 'rejected']]);
  // Its credentials or model refused: the channel's trouble, another channel is tried.
  const { outcomes: channel, observe: observeChannel } = observed();
  const keyRefused = upstreamHttpError({ detail: () => undefined }, 401, '{"error":"bad key"}');
  await expect(withFailover(route, () => Promise.reject(keyRefused), observeChannel)).rejects.toBe(keyRefused);
  expect(channel.map(([, outcome]) => outcome)).toEqual(route.channels.map(() => 'retryable_error'));
});

test("a request the adapter refuses before sending is the client's, not the upstream's failure", async () => {
  const { outcomes, observe } = observed();
  const bad = errors.invalidRequest('tool call arguments must be a JSON object', 'messages[1].tool_calls[0].function.arguments');
  await expect(withFailover(route, () => Promise.reject(bad), observe)).rejects.toBe(bad);
  expect(outcomes).toEqual([['a', 'invalid_request']]);
});

test("a caller that left is not failed over, even on a retryable error, and counts as cancelled, not as the upstream's failure", async () => {
  const { outcomes, observe } = observed();
  const abort = new AbortController();
  const failure = errors.upstream(502, 'connection reset', true);
  const attempt = async () => {
    abort.abort(new Error('client gone'));
    throw failure;
  };
  await expect(withFailover(route, attempt, observe, abort.signal)).rejects.toBe(failure);
  expect(outcomes).toEqual([['a', 'cancelled']]);
});

test('each attempt is told with its own time, from its start to its result or its failure', async () => {
  const times: Array<[string, number]> = [];
  const observe = (_r: ModelRoute, c: Channel, _o: AttemptOutcome, _e?: unknown, _id?: string, ms?: number) => times.push([c.id, ms!]);
  const slow = (ms: number) => new Promise((r) => setTimeout(r, ms));
  await withFailover(
    route,
    async (c) => {
      await slow(c.id === 'a' ? 60 : 20);
      if (c.id === 'a') throw errors.upstream(503, 'busy', true);
      return c.id;
    },
    observe,
  );
  expect(times.map(([id]) => id)).toEqual(['a', 'b']);
  const [[, a], [, b]] = times;
  expect(a).toBeGreaterThanOrEqual(55);
  // b's clock started when b did, not when the call did.
  expect(b).toBeGreaterThanOrEqual(15);
  expect(b).toBeLessThan(55);
});
