import type { EndpointPort, UsageSink } from '@unigate/contracts';
import { EndpointRunner, serviceEndpoints, type InteractionRegistry, type ResultStore } from '@unigate/providers';
import { upstreamObservers, type Logger } from '@unigate/platform';

/**
 * The media service: the one runner (packages/providers) serving the media endpoints — embeddings,
 * speech, image generations and edits — with usage to billing, image results kept in `results` and
 * the owners of stored gamma interactions in `interactions`.
 * The service process and standalone both call this.
 */
export function createMediaService(deps: {
  usage: UsageSink;
  logger: Logger;
  results?: ResultStore;
  interactions?: InteractionRegistry;
}): EndpointPort {
  return new EndpointRunner({
    endpoints: serviceEndpoints('media', { results: deps.results, interactions: deps.interactions }),
    usage: deps.usage,
    ...upstreamObservers(deps.logger),
  });
}
