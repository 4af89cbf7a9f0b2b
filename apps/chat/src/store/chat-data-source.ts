/** The chat service's Postgres schema, migrated (packages/platform createDataSource). */
import { type Logger } from '@unigate/platform';
import { createDataSource } from '@unigate/platform/database';
import type { DataSource } from 'typeorm';
import { CHAT_MIGRATIONS } from '../migrations';

export const CHAT_SCHEMA = 'chat';

export interface OpenChatDataSourceOptions {
  url: string;
  /** 1 on the embedded store (EMBEDDED_POOL_SIZE); default 10. */
  poolSize?: number;
  logger?: Logger;
}

export function openChatDataSource(opts: OpenChatDataSourceOptions): Promise<DataSource> {
  return createDataSource({
    url: opts.url,
    schema: CHAT_SCHEMA,
    // The store speaks SQL (the chain, the trigger-named conversation, the sweep); the migrations define the table.
    entities: [],
    migrations: CHAT_MIGRATIONS,
    poolSize: opts.poolSize,
    logger: opts.logger,
  });
}
