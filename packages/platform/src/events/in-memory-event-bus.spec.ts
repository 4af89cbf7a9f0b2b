import { createLogger } from '../logger';
import { InMemoryEventBus } from './in-memory-event-bus';
import { waitFor } from '@unigate/testing';

const logger = createLogger('in-memory-bus-spec', 'silent');
let bus: InMemoryEventBus;

beforeEach(() => {
  bus = new InMemoryEventBus({ logger, retryBackoff: { initialMs: 5, maxMs: 20 } });
});
afterEach(() => bus.close());

test('delivers asynchronously, as a copy, with key, topic and headers', async () => {
  const got: unknown[] = [];
  let metaKey = '';
  let traceparent: string | undefined;
  await bus.subscribe('t', 'g', async (payload, meta) => {
    got.push(payload);
    metaKey = meta.key;
    traceparent = meta.headers.traceparent;
  });
  const payload = { n: 1, nested: { a: 1 } };
  await bus.publish('t', 'k', payload, { traceparent: 'tp' });
  expect(got).toHaveLength(0); // not during publish
  await waitFor('delivery', () => got.length === 1, 5_000, 5);
  expect(got[0]).toEqual(payload);
  expect(got[0]).not.toBe(payload);
  expect(metaKey).toBe('k');
  expect(traceparent).toBe('tp');
});

test("subscribeAll hands each topic's events to its own handler", async () => {
  const got: string[] = [];
  await bus.subscribeAll('g', {
    a: async (payload, meta) => void got.push(`a:${meta.topic}:${(payload as { n: number }).n}`),
    b: async (payload, meta) => void got.push(`b:${meta.topic}:${(payload as { n: number }).n}`),
  });
  await bus.publish('a', 'k', { n: 1 });
  await bus.publish('b', 'k', { n: 2 });
  await waitFor('both', () => got.length === 2, 5_000, 5);
  expect(got.sort()).toEqual(['a:a:1', 'b:b:2']);
});

test('every group gets every event; members of one group share them', async () => {
  const g1: number[] = [];
  const g2a: number[] = [];
  const g2b: number[] = [];
  await bus.subscribe('t', 'g1', async (p) => void g1.push((p as { n: number }).n));
  await bus.subscribe('t', 'g2', async (p) => void g2a.push((p as { n: number }).n));
  await bus.subscribe('t', 'g2', async (p) => void g2b.push((p as { n: number }).n));
  for (let n = 0; n < 40; n++) await bus.publish('t', `key-${n}`, { n });
  await waitFor('all events', () => g1.length === 40 && g2a.length + g2b.length === 40, 5_000, 5);
  expect(new Set([...g2a, ...g2b]).size).toBe(40);
  expect(g2a.length).toBeGreaterThan(0);
  expect(g2b.length).toBeGreaterThan(0);
});

test('a throwing handler gets the same event again; events of that key keep their order', async () => {
  const calls: number[] = [];
  let failures = 2;
  await bus.subscribe('t', 'g', async (p) => {
    const { n } = p as { n: number };
    calls.push(n);
    if (n === 1 && failures-- > 0) throw new Error('transient');
  });
  await bus.publish('t', 'k', { n: 1 });
  await bus.publish('t', 'k', { n: 2 });
  await waitFor('event 2', () => calls.includes(2), 5_000, 5);
  expect(calls).toEqual([1, 1, 1, 2]);
});

test('events of one key are handled one at a time', async () => {
  let running = 0;
  let maxRunning = 0;
  let done = 0;
  await bus.subscribe('t', 'g', async () => {
    running++;
    maxRunning = Math.max(maxRunning, running);
    await new Promise((r) => setTimeout(r, 2));
    running--;
    done++;
  });
  for (let i = 0; i < 10; i++) await bus.publish('t', 'one-key', { i });
  await waitFor('all', () => done === 10, 5_000, 5);
  expect(maxRunning).toBe(1);
});

test('events published before the first subscription are kept for it', async () => {
  await bus.publish('early', 'k', { n: 1 });
  const got: unknown[] = [];
  await bus.subscribe('early', 'g', async (p) => void got.push(p));
  await waitFor('backlog', () => got.length === 1, 5_000, 5);
  expect(got).toEqual([{ n: 1 }]);
});

test('close stops delivery and reports not ready', async () => {
  await bus.close();
  expect(bus.isReady()).toBe(false);
  await expect(bus.publish('t', 'k', {})).rejects.toThrow('closed');
  await expect(bus.checkReady()).rejects.toThrow('closed');
});
