/**
 * The object store of distributed mode: an S3-compatible bucket (MinIO, AWS S3, or s3rver in tests)
 * that the media service writes and every edge replica reads. The expiry travels as object metadata;
 * a production bucket should also carry a lifecycle rule expiring objects after 2 days.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { OBJECT_KEY, type ObjectStore, type StoredObject } from './object-store';

export interface S3ObjectStoreOptions {
  bucket: string;
  region: string;
  /** An S3-compatible endpoint (MinIO, s3rver): path-style addressing. Absent: AWS itself. */
  endpoint?: string;
}

const EXPIRES = 'expires-at';

type S3Sdk = typeof import('@aws-sdk/client-s3');

/**
 * The AWS SDK, loaded when the first S3 store is made rather than with the package: every service
 * imports platform, most never touch a bucket (chat, billing, catalog; media and the edge only with
 * UNIGATE_S3_BUCKET), and the SDK costs a process ~20 MiB of RSS (docs/operations.md, "Memory").
 */
function loadSdk(): S3Sdk {
  // On Node 20 the SDK's first client prints, once, a ten-line warning to stderr that its releases
  // after January 2027 need Node 22: a note for whoever updates the lock file (docs/development.md),
  // and plain text in the middle of an operator's JSON logs. Its own switch turns it off; an operator
  // who sets it otherwise keeps it.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@aws-sdk/client-s3') as S3Sdk; // require caches it: loaded once per process
}

export class S3ObjectStore implements ObjectStore {
  private readonly sdk = loadSdk();
  private readonly s3: S3Client;

  constructor(private readonly opts: S3ObjectStoreOptions) {
    this.s3 = new this.sdk.S3Client({ region: opts.region, ...(opts.endpoint && { endpoint: opts.endpoint, forcePathStyle: true }) });
  }

  /** Creates the bucket when it does not exist yet (the writer calls this at start). */
  async ensureBucket(): Promise<void> {
    try {
      await this.s3.send(new this.sdk.HeadBucketCommand({ Bucket: this.opts.bucket }));
    } catch {
      await this.s3.send(new this.sdk.CreateBucketCommand({ Bucket: this.opts.bucket })).catch((err: { name?: string }) => {
        if (err?.name !== 'BucketAlreadyOwnedByYou' && err?.name !== 'BucketAlreadyExists') throw err;
      });
    }
  }

  async put(key: string, object: StoredObject): Promise<void> {
    if (!OBJECT_KEY.test(key)) throw new Error(`invalid object key ${key}`);
    await this.s3.send(
      new this.sdk.PutObjectCommand({
        Bucket: this.opts.bucket,
        Key: key,
        Body: object.data,
        ContentType: object.contentType,
        Metadata: { [EXPIRES]: String(object.expiresAt) },
      }),
    );
  }

  async get(key: string): Promise<StoredObject | undefined> {
    if (!OBJECT_KEY.test(key)) return undefined;
    try {
      const res = await this.s3.send(new this.sdk.GetObjectCommand({ Bucket: this.opts.bucket, Key: key }));
      const data = Buffer.from(await res.Body!.transformToByteArray());
      return { data, contentType: res.ContentType ?? 'application/octet-stream', expiresAt: Number(res.Metadata?.[EXPIRES] ?? 0) };
    } catch (err) {
      if ((err as { name?: string })?.name === 'NoSuchKey') return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    if (!OBJECT_KEY.test(key)) return;
    await this.s3.send(new this.sdk.DeleteObjectCommand({ Bucket: this.opts.bucket, Key: key }));
  }

  async sweep(now = Date.now()): Promise<number> {
    let swept = 0;
    let token: string | undefined;
    do {
      const page = await this.s3.send(new this.sdk.ListObjectsV2Command({ Bucket: this.opts.bucket, ContinuationToken: token }));
      for (const item of page.Contents ?? []) {
        if (!item.Key || !OBJECT_KEY.test(item.Key)) continue;
        const head = await this.s3.send(new this.sdk.HeadObjectCommand({ Bucket: this.opts.bucket, Key: item.Key })).catch(() => undefined);
        if (head && Number(head.Metadata?.[EXPIRES] ?? 0) <= now) {
          await this.delete(item.Key);
          swept++;
        }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return swept;
  }

  close(): void {
    this.s3.destroy();
  }
}
