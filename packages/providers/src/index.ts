export type { ChatProvider } from './types';
export type { AdapterDeps, InteractionRegistry, ResultStore } from './adapter-deps';
export type { CallContext, EndpointAdapter, Measured, MeasuredStream, ServiceEndpoint, AnyServiceEndpoint } from './adapter';
export { chatProviderFor } from './chat-providers';
export {
  PROTOCOLS,
  type Protocol,
  isProtocol,
  protocolsFor,
  defaultProtocol,
  simulatorBaseUrl,
  SERVICE_ENDPOINTS,
  serviceEndpoints,
} from './registry';
export { EndpointRunner, type EndpointRunnerDeps } from './runner/endpoint-runner';
export { withFailover, type AttemptObserver, type AttemptOutcome } from './runner/failover';
export { HttpClient, sharedHttpClient, type HttpClientOptions, type HttpRequest, type HttpResponse } from './http/http-client';
export { readSse, type SseEvent } from './sse/sse-reader';
export { UsageTally } from './usage/usage-tally';
export { OpenAiChatAdapter } from './openai-chat/openai-chat-adapter';
export { AnthropicMessagesClient, type AnthropicCallOptions } from './anthropic-messages/anthropic-messages-client';
export { AnthropicMessagesChatProvider, type AnthropicChatProviderOptions } from './anthropic-messages/anthropic-messages-chat-provider';
export { ANTHROPIC_VERSION } from './anthropic-messages/anthropic-messages-request';
export * from './translate/openai-chat__anthropic-messages';
export { GeminiGenerateAdapter } from './gemini-generate/gemini-generate-adapter';
export { toGeminiRequest } from './translate/openai-chat__gemini-generate/openai-chat__gemini-generate.request';
export { videoUpstreamFor, type VideoSubmission } from './endpoints/videos.endpoint';
export type { VideoUpstream, PolledVideoTask, SubmittedVideoTask } from './video/video-upstream';
export { safeFetch, safePost, readAll } from './http/safe-fetch';
