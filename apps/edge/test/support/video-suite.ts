/**
 * Video tasks end to end (SPEC.md §2.6, §3, §4): submission answers 202 with the task record, the
 * task is polled to its end, the result is a kept MP4 behind a signed link, billing charges the
 * seconds at the resolution on success and nothing on failure, lookups work by both id kinds for the
 * owner only, and every per-model rule is a Shape A 400.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAST_VIDEO_ENV, metricSeries, scrapeMetrics } from '@unigate/testing';
import { Webhook } from 'standardwebhooks';
import { Admin, eventually } from './admin';
import { chargeOf, expectNothingCharged } from './media-billing';
import type { Stack } from './stacks';
import { json, useStack, type Loose } from './use-stack';
import { BETA_VIDEO_MODELS, videoBody, wrongFormatBody } from './video-cases';

export function videoSuite(start: (env: Record<string, string>) => Promise<Stack>) {
  let stack: Stack;
  let admin: Admin;
  useStack(
    () => start(FAST_VIDEO_ENV),
    (s) => {
      stack = s;
      admin = new Admin(s);
    },
  );

  const submit = (key: string, body: unknown) =>
    fetch(`${stack.baseURL}/videos/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const lookup = (key: string, id: string) =>
    fetch(`${stack.baseURL}/videos/generations/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${key}` } });
  const ended = (key: string, id: string): Promise<Loose> =>
    eventually(
      () => lookup(key, id).then(json),
      (t) => ['succeeded', 'failed', 'cancelled'].includes(t.status),
    );

  it('submits (202), polls to succeeded with a kept MP4, and charges the seconds at the resolution', async () => {
    const { accountId, key } = await admin.fundedKey(10);
    const res = await submit(key, videoBody('beta2.6-t2v', 'a lighthouse [sim:polls=2]'));
    expect(res.status).toBe(202);
    const task: Loose = await res.json();
    expect(task).toMatchObject({ object: 'video.generation.task', status: 'queued', model: 'beta2.6-t2v' });
    expect(task.id).toMatch(/^vtask-/);
    expect(typeof task.upstream_id).toBe('string');
    expect(task.content).toBeUndefined();
    const done = await ended(key, task.id);
    expect(done).toMatchObject({ status: 'succeeded', usage: { duration: 5 }, seed: null, upstream_id: task.upstream_id });
    expect(done.content.video_url).toMatch(new RegExp(`^${stack.origin}/v1/files/`));
    const mp4 = Buffer.from(await (await fetch(done.content.video_url)).arrayBuffer());
    expect(mp4.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const charge = await chargeOf(admin, accountId, res.headers.get('x-request-id')!);
    expect(charge.units).toMatchObject({ video_seconds: 5, video_resolution: '720p' });
    expect(charge.cost_micros).toBe(5 * 100_000);
    const account = await eventually(
      () => admin.account(accountId),
      (a) => a.reserved_usd === 0,
    );
    expect(account.balance_usd).toBeCloseTo(10 - 0.5, 6);
  });

  it('looks a task up by its upstream id too; another account gets a 404 in Shape A', async () => {
    const owner = await admin.fundedKey(10);
    const other = await admin.fundedKey(10);
    const task: Loose = await (await submit(owner.key, videoBody('beta2.7-t2v'))).json();
    expect((await json(await lookup(owner.key, task.upstream_id))).id).toBe(task.id);
    for (const id of [task.id, task.upstream_id]) {
      const res = await lookup(other.key, id);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'TaskNotFound', message: expect.any(String), request_id: expect.any(String) });
    }
    await ended(owner.key, task.id);
  });

  it('an id holding a NUL character is a 404 like any unknown id, not a database error', async () => {
    const { key } = await admin.fundedKey(1);
    for (const id of ['\u0000', 'cgt-\u0000x']) {
      const res = await lookup(key, id);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'TaskNotFound' });
    }
  });

  it("an unknown account's webhook secret is a 404; a known one's is made once and kept", async () => {
    for (const id of ['00000000-0000-0000-0000-000000000000', 'no-such-account', '\u0000']) {
      const res = await admin.call<Loose>('GET', `/accounts/${encodeURIComponent(id)}/webhook-secret`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: { code: 'not_found' } });
    }
    const { accountId } = await admin.fundedKey(1);
    const first = await admin.call<{ account_id: string; secret: string }>('GET', `/accounts/${accountId}/webhook-secret`);
    expect(first).toMatchObject({ status: 200, body: { account_id: accountId, secret: expect.stringMatching(/^whsec_/) } });
    expect((await admin.call<{ secret: string }>('GET', `/accounts/${accountId}/webhook-secret`)).body.secret).toBe(first.body.secret);
  });

  it('an id up to the 100 characters the reference allows is looked up; a longer one is a 414', async () => {
    const { key } = await admin.fundedKey(1);
    expect((await lookup(key, 'v'.repeat(100))).status).toBe(404);
    const res = await lookup(key, 'v'.repeat(101));
    expect(res.status).toBe(414);
    // Refused while routing, before the route (and its family's Shape A) is known: the default shape.
    expect(await res.json()).toMatchObject({ error: { code: 'uri_too_long' } });
  });

  it('an upstream failure fails the task and gives the hold back: nothing charged', async () => {
    const { accountId, key } = await admin.fundedKey(10);
    const res = await submit(key, videoBody('beta2.6-i2v', 'doomed [sim:fail] [sim:polls=1]'));
    expect(res.status).toBe(202);
    const done = await ended(key, (await json(res)).id);
    expect(done).toMatchObject({ status: 'failed', error: { code: 'InternalError.Algo' } });
    await expectNothingCharged(admin, { accountId, key }, 10);
  });

  it.each(BETA_VIDEO_MODELS)('%s: a valid submission is accepted, the other format is a Shape A 400', async (model) => {
    const { key } = await admin.fundedKey(10);
    const ok = await submit(key, videoBody(model, 'ok [sim:polls=0]'));
    expect(ok.status).toBe(202);
    const { body, param } = wrongFormatBody(model);
    const bad = await submit(key, body);
    expect(bad.status).toBe(400);
    const err: Loose = await bad.json();
    expect(err).toMatchObject({ code: 'InvalidParameter', request_id: expect.any(String) });
    expect(err.message).toContain(param);
  });

  it.each([
    ['480p off the previews', { resolution: '480p', parameters: { size: '832*480', duration: 5 } }],
    ['parameters.duration not repeating duration', { parameters: { size: '1280*720', duration: 10 } }],
    ['a webhook_url that is not http(s)', { webhook_url: 'ftp://example.com/hook' }],
    ['a webhook_url that is not a URL', { webhook_url: 'hook' }],
    [
      '1080p 1:1 with a size that is not the square the vendor lists',
      { resolution: '1080p', aspect_ratio: '1:1', parameters: { size: '1088*1080', duration: 5 } },
    ],
    ['a fractional duration', { duration: 5.5 }],
    ['a duration as text', { duration: '5' }],
    ['parameters that are not an object', { parameters: 'oops' }],
    ['input that is not an object', { input: 'x' }],
    ['a null webhook_url', { webhook_url: null }],
    ['a null aspect_ratio', { aspect_ratio: null }],
    ['a model that is not a string', { model: 5 }],
  ])('refuses %s (400 Shape A)', async (_, extra) => {
    const res = await submit(stack.apiKey, { ...videoBody('beta2.6-t2v'), ...extra });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'InvalidParameter', message: expect.any(String), request_id: expect.any(String) });
  });

  it.each([
    ['1080p', '1:1', '1440*1440'],
    ['1080p', '3:4', '1248*1632'],
    ['720p', '1:1', '960*960'],
  ])('takes %s at %s on a 2.6 model as the size the vendor lists, %s (202)', async (resolution, aspect_ratio, size) => {
    const res = await submit(stack.apiKey, {
      ...videoBody('beta2.6-t2v', 'square [sim:polls=0]'),
      resolution,
      aspect_ratio,
      parameters: { size, duration: 5 },
    });
    expect(res.status).toBe(202);
  });

  it('a webhook target failing twice then succeeding gets exactly one accepted, verifiable delivery', async () => {
    const { accountId, key } = await admin.fundedKey(10);
    const received: Array<{ headers: IncomingHttpHeaders; body: string; status: number }> = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const status = received.length < 2 ? 500 : 204;
        received.push({ headers: req.headers, body, status });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const res = await submit(key, videoBody('beta2.7-t2v', 'hooked [sim:polls=1]', { webhook_url: url }));
      expect(res.status).toBe(202);
      const task: Loose = await res.json();
      expect(task.webhook_url).toBe(url);
      await eventually(
        async () => received.length,
        (n) => n >= 3,
      );
      await new Promise((r) => setTimeout(r, 500)); // no further delivery after the accepted one
      expect(received.map((r) => r.status)).toEqual([500, 500, 204]);
      const secret = (await admin.call<{ secret: string }>('GET', `/accounts/${accountId}/webhook-secret`)).body.secret;
      expect(secret).toMatch(/^whsec_/);
      const accepted = received[2]!;
      const payload = new Webhook(secret).verify(accepted.body, accepted.headers as Record<string, string>) as Loose;
      expect(payload).toMatchObject({
        type: 'video.task.succeeded',
        data: { id: task.id, status: 'succeeded', content: { video_url: expect.any(String) } },
      });
      // With no UNIGATE_PUBLIC_URL the link is absolute on the origin the task was submitted on, and serves the MP4.
      const link = (payload.data as Loose).content.video_url as string;
      expect(link).toMatch(new RegExp(`^${stack.origin}/v1/files/`));
      const mp4 = await fetch(link);
      expect(mp4.status).toBe(200);
      expect(mp4.headers.get('content-type')).toBe('video/mp4');
      // Retries carry the same webhook-id, so a receiver can drop duplicates.
      expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      const other = await admin.fundedKey(1);
      const tampered = new Webhook(
        (await admin.call<{ secret: string }>('GET', `/accounts/${other.accountId}/webhook-secret`)).body.secret,
      );
      expect(() => tampered.verify(accepted.body, accepted.headers as Record<string, string>)).toThrow();
    } finally {
      receiver.close();
    }
  });

  it('counts its tasks, polls and webhook deliveries in /metrics of the process that runs them', async () => {
    const { key } = await admin.fundedKey(10);
    const model = 'beta2.6-t2v';
    const origin = stack.name === 'distributed' ? stack.originOf('video') : stack.origin;
    const counts = async () => {
      const text = await scrapeMetrics(origin, stack.adminToken);
      const sum = (name: string, labels: Record<string, string>) => metricSeries(text, name, labels).reduce((s, x) => s + x.value, 0);
      return {
        submitted: sum('unigate_video_tasks_submitted_total', { model }),
        succeeded: sum('unigate_video_tasks_ended_total', { model, status: 'succeeded' }),
        failed: sum('unigate_video_tasks_ended_total', { model, status: 'failed' }),
        timed: sum('unigate_video_task_duration_seconds_count', { model }),
        pollsRunning: sum('unigate_video_polls_total', { model, outcome: 'running' }),
        pollsEnded: sum('unigate_video_polls_total', { model, outcome: 'ended' }),
        rejected: sum('unigate_webhook_deliveries_total', { outcome: 'rejected' }),
        delivered: sum('unigate_webhook_deliveries_total', { outcome: 'delivered' }),
      };
    };
    let hits = 0;
    const receiver = createServer((req, res) => {
      req.resume().on('end', () => res.writeHead(hits++ === 0 ? 503 : 204).end());
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const before = await counts();
      const webhook_url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const ok = await submit(key, videoBody(model, 'counted [sim:polls=2]', { webhook_url }));
      const doomed = await submit(key, videoBody(model, 'counted [sim:fail] [sim:polls=1]'));
      expect([ok.status, doomed.status]).toEqual([202, 202]);
      await ended(key, (await json(ok)).id);
      await ended(key, (await json(doomed)).id);
      const after = await eventually(counts, (c) => c.delivered > before.delivered);
      // At least (other tests' tasks of the same model may still be running), so each shortfall is named.
      const least = { submitted: 2, succeeded: 1, failed: 1, timed: 2, pollsRunning: 2, pollsEnded: 2, rejected: 1, delivered: 1 };
      const short = Object.entries(least).filter(([k, n]) => after[k as keyof typeof least] - before[k as keyof typeof least] < n);
      expect(short.map(([k]) => [k, after[k as keyof typeof least] - before[k as keyof typeof least]])).toEqual([]);
    } finally {
      receiver.close();
    }
  });

  it('kappa (Ark content-generation tasks): a cgt- task found by its upstream id, with its seed, charged at its price', async () => {
    const { accountId, key } = await admin.fundedKey(10);
    const body = {
      model: 'kappa-seed-i2v',
      duration: 4,
      resolution: '1080p',
      input: { prompt: 'a kite [sim:polls=1]', media: [{ type: 'first_frame', url: 'https://example.com/f.png' }] },
      parameters: { resolution: '1080p', duration: 4, seed: 7 },
    };
    const res = await submit(key, body);
    expect(res.status).toBe(202);
    const task: Loose = await res.json();
    expect(task.upstream_id).toMatch(/^cgt-/);
    const done = await ended(key, task.upstream_id);
    expect(done).toMatchObject({
      id: task.id,
      status: 'succeeded',
      seed: 7,
      content: { video_url: expect.stringContaining('/v1/files/') },
    });
    const charge = await chargeOf(admin, accountId, res.headers.get('x-request-id')!);
    expect(charge.units).toMatchObject({ video_seconds: 4, video_resolution: '1080p' });
    expect(charge.cost_micros).toBe(4 * 100_000);
    const bad = await submit(key, { ...body, input: { prompt: 'no frame' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'InvalidParameter', message: expect.stringContaining('first_frame') });
  });

  it('an unknown beta model is a Shape A 400', async () => {
    const res = await submit(stack.apiKey, { ...videoBody('beta2.6-t2v'), model: 'beta9.9-t2v' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'InvalidParameter' });
  });
}
