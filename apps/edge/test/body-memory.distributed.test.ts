/**
 * Request bodies held at once (UNIGATE_BODY_MEMORY_MB; 4 MiB here, on every process) are bounded on the
 * capability service too: each edge counts only what it holds, so two edges can each admit a large body
 * for the same chat replica, and the service refuses the one that would take it past its own limit.
 * Only the processes that hold bodies report them (and only edges their WebSocket connections).
 */
import { metricSum, scrapeMetrics } from '@unigate/testing';
import { Admin, eventually } from './support/admin';
import { SimControl } from './support/sim-control';
import { startDistributed, type Stack } from './support/stacks';
import { json, useStack } from './support/use-stack';

const MiB = 1024 * 1024;
let stack: Stack;
let admin: Admin;
useStack(
  () => startDistributed({ UNIGATE_BODY_MEMORY_MB: '4' }, { edges: 2 }),
  (s) => {
    stack = s;
    admin = new Admin(s);
  },
);

const chat = (origin: string, key: string, content: string, model = 'omega-k3') =>
  fetch(`${origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 1, messages: [{ role: 'user', content }] }),
  });
const words = (mib: number) => 'word '.repeat((mib * MiB) / 5);
const heldOn = async (label: string) =>
  metricSum(await scrapeMetrics(stack.originOf(label), stack.adminToken), 'unigate_request_body_bytes');

it('a body one edge admits is refused 503 by the chat service that already holds another edge’s, and served once that one is answered', async () => {
  const holder = await admin.fundedKey(100);
  const other = await admin.fundedKey(100);
  const [first, second] = stack.edges;
  await new SimControl(stack).fault({ match: { model: 'omega-k3' }, latency_ms: 1_500, count: 1 });
  const held = chat(first.origin, holder.key, words(3));
  await eventually(
    () => heldOn('chat'),
    (bytes) => bytes >= 3 * MiB,
    5_000,
  );
  expect(await heldOn('edge-2')).toBe(0);

  const refused = await chat(second.origin, other.key, words(2));
  expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '1']);
  expect(await json(refused)).toMatchObject({ error: { code: 'service_unavailable' } });
  const small = await chat(second.origin, other.key, 'hi', 'sigma-sonnet-4-6');
  expect(small.status).toBe(200);

  expect((await held).status).toBe(200);
  await eventually(
    () => heldOn('chat'),
    (bytes) => bytes === 0,
    5_000,
  );
  expect((await chat(second.origin, other.key, words(2))).status).toBe(200);
});

it('reports the bodies held on the processes that hold them, and WebSocket connections on the edges only', async () => {
  const scrape = (label: string) => scrapeMetrics(stack.originOf(label), stack.adminToken);
  const reported = (text: string) => ({
    bodies: /^unigate_request_body_bytes /m.test(text),
    sockets: /^unigate_websocket_connections /m.test(text),
  });
  for (const label of ['edge', 'edge-2']) expect(reported(await scrape(label))).toEqual({ bodies: true, sockets: true });
  for (const label of ['chat', 'media', 'video'])
    expect([label, reported(await scrape(label))]).toEqual([label, { bodies: true, sockets: false }]);
  for (const label of ['billing', 'catalog'])
    expect([label, reported(await scrape(label))]).toEqual([label, { bodies: false, sockets: false }]);
});
