import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestS3, type TestS3 } from '@unigate/testing';
import { FsObjectStore } from './fs-object-store';
import { startSweeper, type ObjectStore } from './object-store';
import { S3ObjectStore } from './s3-object-store';
import { LinkSigner } from './signed-links';

const KEY = `${'ab'.repeat(16)}.png`;
const OTHER = `${'cd'.repeat(16)}.png`;

describe('LinkSigner', () => {
  const signer = new LinkSigner('a-secret-of-enough-length');
  it('accepts its own link until it expires, and refuses an altered one', () => {
    const url = new URL(`http://x${signer.link(KEY, Date.now() + 60_000)}`);
    const [expires, sig] = [url.searchParams.get('expires')!, url.searchParams.get('signature')!];
    expect(url.pathname).toBe(`/v1/files/${KEY}`);
    expect(signer.check(KEY, expires, sig)).toBe('ok');
    expect(signer.check(KEY, expires, sig, Date.now() + 61_000)).toBe('expired');
    expect(signer.check(OTHER, expires, sig)).toBe('invalid');
    expect(signer.check(KEY, String(Number(expires) + 1), sig)).toBe('invalid');
    expect(new LinkSigner('another-secret-entirely').check(KEY, expires, sig)).toBe('invalid');
  });
});

describe.each([
  ['the data directory', 'fs'],
  ['an S3 bucket (s3rver)', 's3'],
])('object store on %s', (_label, kind) => {
  let store: ObjectStore;
  let s3: TestS3 | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    if (kind === 'fs') {
      dir = mkdtempSync(join(tmpdir(), 'unigate-objects-'));
      store = new FsObjectStore(dir);
    } else {
      s3 = await startTestS3();
      const env = s3.env('unigate-storage-spec');
      Object.assign(process.env, { AWS_ACCESS_KEY_ID: env.AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: env.AWS_SECRET_ACCESS_KEY });
      const s3store = new S3ObjectStore({ bucket: env.UNIGATE_S3_BUCKET, region: 'us-east-1', endpoint: s3.endpoint });
      await s3store.ensureBucket();
      store = s3store;
    }
  });
  afterAll(async () => {
    if (store instanceof S3ObjectStore) store.close();
    await s3?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps bytes with their type and expiry, sweeps only what expired, refuses foreign keys', async () => {
    const now = Date.now();
    await store.put(KEY, { data: Buffer.from('png bytes'), contentType: 'image/png', expiresAt: now + 60_000 });
    await store.put(OTHER, { data: Buffer.from('old'), contentType: 'image/png', expiresAt: now - 1 });
    expect(await store.get(KEY)).toEqual({ data: Buffer.from('png bytes'), contentType: 'image/png', expiresAt: now + 60_000 });
    expect(await store.sweep(now)).toBe(1);
    expect(await store.get(OTHER)).toBeUndefined();
    expect(await store.get(KEY)).toBeDefined();
    await store.delete(KEY);
    expect(await store.get(KEY)).toBeUndefined();
    expect(await store.get('../../etc/passwd')).toBeUndefined();
    await expect(store.put('../x.png', { data: Buffer.from(''), contentType: 'image/png', expiresAt: now })).rejects.toThrow(
      /invalid object key/,
    );
  });

  it('the periodic sweeper removes a result once it expires, keeps the live ones, and stops when told', async () => {
    const now = Date.now();
    await store.put(KEY, { data: Buffer.from('live'), contentType: 'image/png', expiresAt: now + 60_000 });
    await store.put(OTHER, { data: Buffer.from('soon gone'), contentType: 'image/png', expiresAt: now + 200 });
    const errors: unknown[] = [];
    const stop = startSweeper(store, 50, (err) => errors.push(err));
    try {
      expect(await store.get(OTHER)).toBeDefined();
      const deadline = Date.now() + 5_000;
      while ((await store.get(OTHER)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await store.get(OTHER)).toBeUndefined();
      expect(await store.get(KEY)).toBeDefined();
      expect(errors).toEqual([]);
    } finally {
      stop();
    }
    // Stopped (a sweep in flight is given time to end): an expired object stays until someone sweeps again.
    await new Promise((r) => setTimeout(r, 300));
    await store.put(OTHER, { data: Buffer.from('expired'), contentType: 'image/png', expiresAt: Date.now() - 1 });
    await new Promise((r) => setTimeout(r, 200));
    expect(await store.get(OTHER)).toBeDefined();
    await store.delete(OTHER);
    await store.delete(KEY);
  });
});

describe('startSweeper', () => {
  it('reports a failed sweep and keeps sweeping', async () => {
    let calls = 0;
    const failing = {
      sweep: async () => {
        calls += 1;
        if (calls === 1) throw new Error('bucket unreachable');
        return 0;
      },
    } as unknown as ObjectStore;
    const errors: unknown[] = [];
    const stop = startSweeper(failing, 20, (err) => errors.push(err));
    await new Promise((r) => setTimeout(r, 150));
    stop();
    expect(errors).toEqual([new Error('bucket unreachable')]);
    expect(calls).toBeGreaterThan(1);
  });
});
