/**
 * An account's newest video tasks (the dashboard's list) on real Postgres: newest first, the same
 * records as a lookup, never another account's, at most the limit asked and never more than 50.
 */
import { MAX_RECENT_VIDEO_TASKS, type ModelInfo } from '@unigate/contracts';
import { createLogger, InMemoryEventBus } from '@unigate/platform';
import { createTestDatabase, uniqueName, type TestDatabase } from '@unigate/testing';
import type { DataSource } from 'typeorm';
import { createVideoService, openVideoDataSource, type VideoService } from '../src';

const logger = createLogger('video-test', 'silent');
const MODEL = { id: 'beta2.6-t2v', kind: 'video' } as ModelInfo;

let db: TestDatabase;
let ds: DataSource;
let video: VideoService;
let bus: InMemoryEventBus;

beforeAll(async () => {
  db = await createTestDatabase('video');
  ds = await openVideoDataSource({ url: db.url, logger });
  bus = new InMemoryEventBus({ logger });
  video = createVideoService({
    dataSource: ds,
    usage: { record: async () => 0 },
    billing: { releaseHold: async () => undefined },
    // Never polled here: the tasks are stored, not run.
    catalog: { resolve: async () => Promise.reject(new Error('not polled in this test')) },
    bus,
    polls: { schedule: async () => undefined },
    logger,
  });
});
afterAll(async () => {
  await bus?.close();
  await ds?.destroy();
  await db?.drop();
});

/** `count` tasks of `account`, stored one after the other (so each is newer than the last); their ids, oldest first. */
async function stored(account: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const row = await video.store.insert({
      id: uniqueName('vtask'),
      account_id: account,
      key_id: 'key-1',
      request_id: uniqueName('req'),
      hold_id: null,
      origin: null,
      model: MODEL.id,
      model_info: MODEL,
      request: { model: MODEL.id, input: { prompt: `task ${i}` } } as never,
      webhook_url: null,
      deadline_at: new Date(Date.now() + 60_000),
    });
    ids.push(row.id);
  }
  return ids;
}

describe('recent video tasks', () => {
  it("lists the account's tasks newest first, as lookups see them, and none of another account's", async () => {
    const [mine, theirs] = [uniqueName('acct'), uniqueName('acct')];
    const [a1, a2] = await stored(mine, 2);
    await stored(theirs, 2);
    const [a3] = await stored(mine, 1);
    // One task ended with a result: the listing carries it like the lookup does.
    await video.store.submitted(
      a2!,
      { id: 'sim', protocol: 'dashscope', base_url: 'http://sim', api_key: '', upstream_model: MODEL.id, priority: 0, weight: 1 },
      'up-2',
      {},
    );
    await video.store.finish(a2!, 'succeeded', { content: { video_url: '/v1/files/a2' }, usage: { duration: 5 }, seed: 7 });

    const recent = await video.recent(mine, 10);
    expect(recent.map((t) => t.id)).toEqual([a3, a2, a1]);
    expect(recent).toEqual(await Promise.all([a3!, a2!, a1!].map((id) => video.lookup(mine, id))));
    expect(recent[1]).toMatchObject({ status: 'succeeded', upstream_id: 'up-2', content: { video_url: '/v1/files/a2' }, seed: 7 });
    const others = await video.recent(theirs, 10);
    expect(others).toHaveLength(2);
    expect(others.some((t) => [a1, a2, a3].includes(t.id))).toBe(false);
    expect(await video.recent(uniqueName('acct'), 10)).toEqual([]);
  });

  it('returns at most the limit asked, never more than 50, and nothing for a limit of 0', async () => {
    const account = uniqueName('acct');
    const ids = await stored(account, MAX_RECENT_VIDEO_TASKS + 2);
    const newest = [...ids].reverse();
    expect((await video.recent(account, 3)).map((t) => t.id)).toEqual(newest.slice(0, 3));
    expect((await video.recent(account, 1000)).map((t) => t.id)).toEqual(newest.slice(0, MAX_RECENT_VIDEO_TASKS));
    expect(await video.recent(account, 0)).toEqual([]);
    expect(await video.recent(account, -5)).toEqual([]);
  });
});
