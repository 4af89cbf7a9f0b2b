import type { EndpointPort, UsageSink } from '@unigate/contracts';
import { EndpointRunner, serviceEndpoints } from '@unigate/providers';
import { upstreamObservers, type Logger } from '@unigate/platform';
import type { ResponsesStore } from './domain/responses-store';
import { StoredResponses } from './domain/stored-responses';

/**
 * The chat service: the one runner (packages/providers) serving the chat endpoints — chat
 * completions, messages, count_tokens, responses — with usage to billing, and stored Responses kept
 * around it. The service process and standalone both call this.
 */
export function createChatService(deps: { usage: UsageSink; logger: Logger; responses: ResponsesStore }): EndpointPort {
  const runner = new EndpointRunner({ endpoints: serviceEndpoints('chat'), usage: deps.usage, ...upstreamObservers(deps.logger) });
  return new StoredResponses(runner, deps.responses);
}
