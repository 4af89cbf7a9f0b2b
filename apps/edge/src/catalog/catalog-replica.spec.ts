import { setTimeout as sleep } from 'node:timers/promises';
import { createCatalog } from '@unigate/catalog';
import { toSnapshot } from '@unigate/catalog/lookup';
import type { CatalogSnapshot } from '@unigate/contracts';
import { createLogger, type Logger } from '@unigate/platform';
import { CatalogReplica, type SnapshotSource } from './catalog-replica';

const RETRY_MS = 20;
const OLD = toSnapshot(createCatalog({ env: {} }).snapshotData());
const NEW: CatalogSnapshot = { ...OLD, version: 'new', aliases: { ...OLD.aliases, 'fresh-alias': OLD.models[0].id } };

/** A catalog service whose Snapshot answers are settled by the test, one call at a time. */
function fakeSource() {
  const calls: Array<{ resolve: (s: CatalogSnapshot) => void; reject: (err: Error) => void }> = [];
  const source: SnapshotSource = { snapshot: () => new Promise((resolve, reject) => calls.push({ resolve, reject })) };
  /** The next call, once made (within a second). */
  const next = async () => {
    for (let waited = 0; calls.length === 0; waited += 5) {
      if (waited > 1_000) throw new Error('no snapshot call');
      await sleep(5);
    }
    return calls.shift()!;
  };
  return { source, calls, next };
}

const knows = async (replica: CatalogReplica, model: string) =>
  replica.resolve(model).then(
    () => true,
    () => false,
  );

let replica: CatalogReplica | undefined;
afterEach(() => replica?.close());

async function started() {
  const fake = fakeSource();
  replica = new CatalogReplica(fake.source, createLogger('catalog-replica-spec', 'silent'), 60_000, RETRY_MS);
  replica.start();
  (await fake.next()).resolve(OLD);
  await sleep(1);
  expect(await knows(replica, 'fresh-alias')).toBe(false);
  return { ...fake, replica };
}

it('fetches an announced catalogue again, every retry interval, until it loads: a fetch that failed does not count', async () => {
  const { replica, next } = await started();
  // Announced by a catalog service that has just restarted: its first answers fail.
  const announced = replica.refresh();
  (await next()).reject(new Error('UNAVAILABLE'));
  await announced;
  (await next()).reject(new Error('UNAVAILABLE'));
  (await next()).resolve(NEW);
  await sleep(1);
  expect(await knows(replica, 'fresh-alias')).toBe(true);
});

it('does not count a fetch that was under way when the announcement came: it may predate the new catalogue', async () => {
  const { replica, next } = await started();
  const first = replica.refresh();
  const underWay = await next();
  // The second announcement shares the fetch under way, which answers with what it read before.
  const second = replica.refresh();
  underWay.resolve(OLD);
  await Promise.all([first, second]);
  expect(await knows(replica, 'fresh-alias')).toBe(false);
  (await next()).resolve(NEW);
  await sleep(1);
  expect(await knows(replica, 'fresh-alias')).toBe(true);
});

it('waits for the interval, not the retry, once an announced catalogue has loaded', async () => {
  const { replica, next, calls } = await started();
  const announced = replica.refresh();
  (await next()).resolve(NEW);
  await announced;
  await sleep(RETRY_MS * 5);
  expect(calls).toHaveLength(0);
  expect(await knows(replica, 'fresh-alias')).toBe(true);
});

it('warns of failing fetches once, not at every retry, and says when one succeeds again', async () => {
  const fake = fakeSource();
  const lines: Array<{ level: string; msg: string; fields: Record<string, unknown> }> = [];
  const record = (level: string) => (fields: Record<string, unknown>, msg: string) => lines.push({ level, msg, fields });
  const logger = { info: record('info'), warn: record('warn') } as unknown as Logger;
  replica = new CatalogReplica(fake.source, logger, 60_000, RETRY_MS);
  replica.start();
  for (let i = 0; i < 5; i++) (await fake.next()).reject(new Error('UNAVAILABLE'));
  (await fake.next()).resolve(OLD);
  await sleep(1);
  expect(lines.map((l) => [l.level, l.msg])).toEqual([
    ['warn', 'catalog snapshot not loaded; no catalogue held yet'],
    ['info', 'catalog snapshot fetched again'],
    ['info', 'catalog snapshot loaded'],
  ]);
  expect(lines[0].fields).toMatchObject({ err: 'Error: UNAVAILABLE', failed_attempts: 1 });
  expect(lines[1].fields).toEqual({ failed_attempts: 5 });
});
