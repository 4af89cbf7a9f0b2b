export type { ChatProvider } from './types';
export { chatProviderFor } from './registry';
export { HttpClient, sharedHttpClient, type HttpClientOptions, type HttpRequest, type HttpResponse } from './http/http-client';
export { readSse, type SseEvent } from './sse/sse-reader';
export { OpenAiChatAdapter } from './openai-chat/openai-chat-adapter';
export { GeminiGenerateAdapter } from './gemini-generate/gemini-generate-adapter';
export { toGeminiRequest } from './translate/openai-chat__gemini-generate/openai-chat__gemini-generate.request';
