/** The video service's Postgres schema, migrated (packages/platform createDataSource). */
import { type Logger } from '@unigate/platform';
import { createDataSource } from '@unigate/platform/database';
import type { DataSource } from 'typeorm';
import { VIDEO_MIGRATIONS } from '../migrations';

export const VIDEO_SCHEMA = 'video';

export function openVideoDataSource(opts: { url: string; poolSize?: number; logger?: Logger }): Promise<DataSource> {
  return createDataSource({
    url: opts.url,
    schema: VIDEO_SCHEMA,
    entities: [],
    migrations: VIDEO_MIGRATIONS,
    poolSize: opts.poolSize,
    logger: opts.logger,
  });
}
