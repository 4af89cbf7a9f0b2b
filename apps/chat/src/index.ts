export { createChatService } from './create-chat';
export { openChatDataSource, CHAT_SCHEMA, type OpenChatDataSourceOptions } from './store/chat-data-source';
export { MAX_TURNS, TypeOrmResponsesStore } from './store/typeorm-responses-store';
export type { ResponsesStore, StoredResponse } from './domain/responses-store';
export { StoredResponses } from './domain/stored-responses';
export { RemoteCompaction } from './domain/remote-compaction';
export { StoredResponseReads } from './domain/stored-response-reads';
export {
  DEFAULT_RESPONSES_RETENTION_DAYS,
  responsesRetentionDays,
  startResponsesExpiry,
  type ResponsesExpiryOptions,
} from './responses-expiry';
