/** OpenAI's Responses API as a public surface: request, response and stream events. */
export * from './request';
export * from './response';
export * from './events';
export * from './input-items';
export * from './compaction';
