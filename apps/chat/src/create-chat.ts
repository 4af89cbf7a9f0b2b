import type { EndpointPort, UsageSink } from '@unigate/contracts';
import { EndpointRunner, serviceEndpoints } from '@unigate/providers';
import { upstreamObservers, type Logger } from '@unigate/platform';
import type { ResponsesStore } from './domain/responses-store';
import { RemoteCompaction } from './domain/remote-compaction';
import { StoredResponses } from './domain/stored-responses';

/**
 * The chat service: the one runner (packages/providers) serving the chat endpoints — chat
 * completions, messages, count_tokens, responses — with usage to billing, and around it the
 * Responses API's remote compaction and stored Responses. The service process and standalone both
 * call this.
 */
export function createChatService(deps: { usage: UsageSink; logger: Logger; responses: ResponsesStore }): EndpointPort {
  const runner = new EndpointRunner({ endpoints: serviceEndpoints('chat'), usage: deps.usage, ...upstreamObservers(deps.logger) });
  return new StoredResponses(new RemoteCompaction(runner), deps.responses, deps.logger);
}
