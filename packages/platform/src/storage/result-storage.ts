/**
 * The result storage of a distributed process (media writes, edges serve) from its environment:
 * the bucket and the link secret, both or neither. Without them alpha image results are not served.
 */
import { z } from 'zod';
import { readEnv } from '../env';
import { S3ObjectStore } from './s3-object-store';
import { LinkSigner } from './signed-links';

export const resultStorageEnv = z.object({
  UNIGATE_S3_BUCKET: z.string().min(3).max(63).optional(),
  UNIGATE_S3_ENDPOINT: z.string().url().optional(),
  UNIGATE_S3_REGION: z.string().default('us-east-1'),
  UNIGATE_LINK_SECRET: z.string().min(16, 'UNIGATE_LINK_SECRET must be at least 16 characters').optional(),
});

export interface ResultStorage {
  store: S3ObjectStore;
  signer: LinkSigner;
}

export function resultStorageFromEnv(): ResultStorage | undefined {
  const e = readEnv(resultStorageEnv);
  if (!e.UNIGATE_S3_BUCKET && !e.UNIGATE_LINK_SECRET) return undefined;
  if (!e.UNIGATE_S3_BUCKET || !e.UNIGATE_LINK_SECRET)
    throw new Error('UNIGATE_S3_BUCKET and UNIGATE_LINK_SECRET go together: set both to serve image results, or neither');
  return {
    store: new S3ObjectStore({ bucket: e.UNIGATE_S3_BUCKET, region: e.UNIGATE_S3_REGION, endpoint: e.UNIGATE_S3_ENDPOINT }),
    signer: new LinkSigner(e.UNIGATE_LINK_SECRET),
  };
}
