import type { EventBus, Logger } from '@unigate/platform';
import { chatProviderFor } from '@unigate/providers';
import { ChatCompletionService } from './domain/chat-completion.service';

/** Builds the chat domain; the service process and standalone both call this. */
export function createChatService(deps: { bus: EventBus; logger: Logger }): ChatCompletionService {
  return new ChatCompletionService({ bus: deps.bus, logger: deps.logger, providerFor: chatProviderFor });
}
