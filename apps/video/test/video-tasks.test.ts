/**
 * The video service's task lifecycle on real Postgres, Redis and BullMQ against the simulator: polls
 * to the end, settles once (compare-and-set), a failure releases the hold, a timeout fails the task,
 * and a worker killed mid-poll loses nothing.
 */
import { TOPICS, type EndpointCall, type ModelInfo, type Usage } from '@unigate/contracts';
import { createLogger, InMemoryEventBus } from '@unigate/platform';
import { createTestDatabase, redisUrl, uniqueName, waitFor, type TestDatabase } from '@unigate/testing';
import { createSimulator, type Simulator } from '@unigate/upstream-sim';
import type { DataSource } from 'typeorm';
import { BullPolls, createVideoService, openVideoDataSource, type VideoService } from '../src';

const logger = createLogger('video-test', 'silent');
const MODEL = {
  id: 'beta2.6-t2v',
  family: 'beta',
  kind: 'video',
  owned_by: 'beta',
  created: 0,
  prices: { input_per_mtok: 0, output_per_mtok: 0, per_video_second: 100_000 },
  video: {
    input_mode: 't2v',
    api_format: '2.6',
    resolutions: ['720p'],
    default_resolution: '720p',
    aspect_ratios: ['16:9'],
    default_duration_seconds: 5,
    max_duration_seconds: 10,
  },
} as ModelInfo;

let db: TestDatabase;
let ds: DataSource;
let sim: Simulator;
const connection = { url: redisUrl() } as never;

beforeAll(async () => {
  db = await createTestDatabase('video');
  ds = await openVideoDataSource({ url: db.url, logger });
  sim = await createSimulator({ tokenDelayMs: 0 });
});
afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
  await sim?.close();
});
afterEach(async () => {
  catalogKey = '';
  await fetch(`${sim.url}/_sim/faults`, { method: 'DELETE' });
});

/** A video service on its own BullMQ prefix, recording what it tells billing. */
/** The catalog polls ask for the channel's key: the channel of `call`, with the key it has now. */
let catalogKey = '';
const catalog = { resolve: async () => ({ model: MODEL, channels: [{ ...simChannel(), api_key: catalogKey }] }) };

function service(opts: { lockMs?: number; timeoutMs?: number; prefix?: string; sweepEveryMs?: number; failedRecords?: number } = {}) {
  const charged: Array<{ hold: string | null; usage: Usage }> = [];
  let failures = opts.failedRecords ?? 0;
  const released: string[] = [];
  const events: unknown[] = [];
  const bus = new InMemoryEventBus({ logger });
  void bus.subscribe(TOPICS.videoTaskUpdated, 'test', async (e) => void events.push(e));
  const polls = new BullPolls(
    { connection, prefix: opts.prefix ?? uniqueName('bull'), lockMs: opts.lockMs ?? 1000, sweepEveryMs: opts.sweepEveryMs ?? 60_000 },
    logger,
  );
  const video: VideoService = createVideoService({
    dataSource: ds,
    usage: {
      record: async (call, usage) => {
        // Stands for a process killed before the usage was recorded.
        if (failures-- > 0) throw new Error('killed before the usage was recorded');
        charged.push({ hold: call.hold_id, usage });
        return 0;
      },
    },
    billing: { releaseHold: async (_account, hold) => void released.push(hold) },
    catalog,
    bus,
    polls,
    timing: { baseMs: 30, maxMs: 100 },
    timeoutMs: opts.timeoutMs,
    logger,
  });
  const work = { poll: (id: string) => video.tasks.poll(id), stuck: (idleMs: number) => video.store.stuck(idleMs) };
  return { video, polls, work, charged, released, events, bus };
}

const simChannel = () => ({ id: 'sim', protocol: 'dashscope', base_url: sim.url, upstream_model: 'beta2.6-t2v', priority: 0, weight: 1 });

const call = (prompt: string, hold = uniqueName('hold'), submitKey = ''): EndpointCall => ({
  endpoint: 'videos.generations',
  request_id: uniqueName('req'),
  account_id: 'acct-1',
  key_id: 'key-1',
  hold_id: hold,
  route: { model: MODEL, channels: [{ ...simChannel(), api_key: submitKey }] },
  body: { model: 'beta2.6-t2v', duration: 5, resolution: '720p', input: { prompt }, parameters: { size: '1280*720', duration: 5 } },
  options: {},
});

describe('video tasks on BullMQ', () => {
  it('polls a task to succeeded and charges it once, publishing every transition', async () => {
    const s = service();
    await s.polls.start(s.work);
    try {
      const task = await s.video.call(call('a lighthouse [sim:polls=2]'));
      await waitFor(
        'the task to settle',
        async () => (await s.video.store.byId((task as { id: string }).id))?.settled_at != null,
        15_000,
        50,
      );
      await waitFor('billing to be told', () => s.charged.length + s.released.length > 0, 15_000, 50); // billing is told before the claim
      const done = await s.video.lookup('acct-1', (task as { id: string }).id);
      expect(done).toMatchObject({ status: 'succeeded', usage: { duration: 5 } });
      expect(s.charged).toEqual([{ hold: expect.any(String), usage: { video_seconds: 5, video_resolution: '720p' } }]);
      expect(s.released).toEqual([]);
      expect(s.events.map((e) => (e as { status: string }).status)).toEqual(['queued', 'running', 'succeeded']);
    } finally {
      await s.polls.close();
      await s.bus.close();
    }
  });

  it('an upstream failure releases the hold and charges nothing', async () => {
    const s = service();
    await s.polls.start(s.work);
    try {
      const task = (await s.video.call(call('doomed [sim:fail] [sim:polls=1]', 'hold-fail'))) as { id: string };
      await waitFor('the task to settle', async () => (await s.video.store.byId(task.id))?.settled_at != null, 15_000, 50);
      await waitFor('billing to be told', () => s.charged.length + s.released.length > 0, 15_000, 50); // billing is told before the claim
      expect((await s.video.lookup('acct-1', task.id)).status).toBe('failed');
      expect(s.released).toEqual(['hold-fail']);
      expect(s.charged).toEqual([]);
    } finally {
      await s.polls.close();
      await s.bus.close();
    }
  });

  it('a task past its timeout fails and releases its hold', async () => {
    const s = service({ timeoutMs: 1 });
    await s.polls.start(s.work);
    try {
      const task = (await s.video.call(call('slow [sim:polls=100]', 'hold-timeout'))) as { id: string };
      await waitFor('the task to settle', async () => (await s.video.store.byId(task.id))?.settled_at != null, 15_000, 50);
      await waitFor('billing to be told', () => s.charged.length + s.released.length > 0, 15_000, 50); // billing is told before the claim
      expect(await s.video.lookup('acct-1', task.id)).toMatchObject({ status: 'failed', error: { code: 'TaskTimeout' } });
      expect(s.released).toEqual(['hold-timeout']);
    } finally {
      await s.polls.close();
      await s.bus.close();
    }
  });

  it('keeps no upstream API key at rest: polls use the key the catalog has now (a rotated one at once)', async () => {
    const s = service();
    const task = (await s.video.call(call('rotated key [sim:polls=1]', undefined, 'sk-upstream-at-submit'))) as { id: string };
    const [row] = await ds.query(`SELECT channel::text AS channel FROM video.tasks WHERE id = $1`, [task.id]);
    expect(row.channel).not.toContain('sk-upstream');
    expect(JSON.parse(row.channel)).toMatchObject({ id: 'sim', base_url: sim.url });
    catalogKey = 'sk-upstream-rotated';
    await s.video.tasks.poll(task.id);
    const log = (await (await fetch(`${sim.url}/_sim/requests?last=1`)).json()) as {
      data: Array<{ path: string; headers: Record<string, string> }>;
    };
    expect(log.data[0].path).toContain('/api/v1/tasks/');
    expect(log.data[0].headers.authorization).toBe('Bearer sk-upstream-rotated');
    await s.polls.close();
    await s.bus.close();
  });

  it('a poll the upstream refuses with 429 waits the longest step; another failure backs off as usual', async () => {
    const s = service();
    const task = (await s.video.call(call('throttled [sim:polls=5]'))) as { id: string };
    const fault = (status: number) =>
      fetch(`${sim.url}/_sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ match: { path: '/api/v1/tasks/' }, status, count: 1 }),
      });
    await fault(429);
    expect(await s.video.tasks.poll(task.id)).toBe(100); // maxMs: the upstream asked the gateway to slow down
    await fault(500);
    expect(await s.video.tasks.poll(task.id)).toBeLessThan(100);
    await s.polls.close();
    await s.bus.close();
  });

  it('two pollers seeing the same end settle the task once (compare-and-set): billing hears of one request', async () => {
    const s = service();
    const task = (await s.video.call(call('race [sim:polls=0]', 'hold-race'))) as { id: string };
    await Promise.all([s.video.tasks.poll(task.id), s.video.tasks.poll(task.id), s.video.tasks.poll(task.id)]);
    expect((await s.video.lookup('acct-1', task.id)).status).toBe('succeeded');
    // A poller that finds the task ended but not yet settled tells billing again; billing charges a
    // request once (idempotent by request id), so what matters is that every report is this task's.
    expect(s.charged.length).toBeGreaterThanOrEqual(1);
    expect(new Set(s.charged.map((c) => c.hold))).toEqual(new Set(['hold-race']));
    expect((await s.video.store.byId(task.id))?.settled_at).not.toBeNull();
    await s.polls.close();
    await s.bus.close();
  });

  it('a process killed after the task ended but before billing heard of it: the next poll charges it', async () => {
    const s = service({ failedRecords: 1 });
    const task = (await s.video.call(call('interrupted [sim:polls=0]'))) as { id: string };
    await expect(s.video.tasks.poll(task.id)).rejects.toThrow('killed before the usage was recorded');
    expect((await s.video.lookup('acct-1', task.id)).status).toBe('succeeded');
    expect((await s.video.store.byId(task.id))?.settled_at).toBeNull();
    expect(s.charged).toHaveLength(0);
    // The next poll (or the sweeper) finds it ended and unsettled.
    expect(await s.video.tasks.poll(task.id)).toBeNull();
    expect(s.charged).toHaveLength(1);
    expect((await s.video.store.byId(task.id))?.settled_at).not.toBeNull();
    await s.polls.close();
    await s.bus.close();
  });

  it('a worker killed mid-poll loses nothing: another worker completes the task', async () => {
    const prefix = uniqueName('bull');
    const first = service({ prefix, lockMs: 500 });
    await first.polls.start(first.work);
    // Every poll hangs for 2 s: the first worker is killed while one is in flight.
    await fetch(`${sim.url}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { path: '/api/v1/tasks/' }, latency_ms: 2000, count: 1 }),
    });
    const task = (await first.video.call(call('survivor [sim:polls=1]'))) as { id: string };
    await new Promise((r) => setTimeout(r, 400));
    await first.polls.close(true);
    const second = service({ prefix, lockMs: 500 });
    await second.polls.start(second.work);
    try {
      await waitFor('the task to settle', async () => (await second.video.store.byId(task.id))?.settled_at != null, 20_000, 50);
      await waitFor('billing to be told', () => first.charged.length + second.charged.length > 0, 15_000, 50);
      expect((await second.video.lookup('acct-1', task.id)).status).toBe('succeeded');
      expect(new Set([...first.charged, ...second.charged].map((c) => c.hold)).size).toBe(1);
    } finally {
      await second.polls.close();
      await first.bus.close();
      await second.bus.close();
    }
  }, 30_000);

  it('the sweeper picks up a task whose poll job was lost', async () => {
    const lost = createVideoService({
      dataSource: ds,
      usage: { record: async () => 0 },
      billing: { releaseHold: async () => undefined },
      catalog,
      bus: new InMemoryEventBus({ logger }),
      polls: { schedule: async () => undefined }, // the job never reaches the queue
      logger,
    });
    const task = (await lost.call(call('forgotten [sim:polls=0]'))) as { id: string };
    const s = service({ sweepEveryMs: 300 });
    await s.polls.start(s.work);
    try {
      await waitFor('the task to settle', async () => (await s.video.store.byId(task.id))?.settled_at != null, 15_000, 50);
      await waitFor('billing to be told', () => s.charged.length + s.released.length > 0, 15_000, 50); // billing is told before the claim
      expect((await s.video.lookup('acct-1', task.id)).status).toBe('succeeded');
    } finally {
      await s.polls.close();
      await s.bus.close();
    }
  });
});
