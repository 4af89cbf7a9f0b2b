/**
 * An S3-compatible server for the distributed deployment's result bucket: s3rver (npm) on a free
 * port over a temporary directory, in this process. MinIO or any S3 takes its place in production.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { freePort } from './net';

export interface TestS3 {
  endpoint: string;
  /** The environment the media service and the edges read (any credentials do for s3rver). */
  env(bucket: string): Record<string, string>;
  stop(): Promise<void>;
}

export async function startTestS3(): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'unigate-s3-'));
  const port = await freePort();
  const server = new S3rver({ port, address: '127.0.0.1', directory, silent: true });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: (bucket) => ({
      UNIGATE_S3_ENDPOINT: endpoint,
      UNIGATE_S3_BUCKET: bucket,
      UNIGATE_S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    }),
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
