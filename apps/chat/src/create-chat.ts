import type { EventBus, Logger } from '@unigate/platform';
import { chatProviderFor, messagesProviderFor } from '@unigate/providers';
import { ChatCompletionService } from './domain/chat-completion.service';
import { MessagesService } from './domain/messages.service';

/** Builds the chat domain; the service process and standalone both call this. */
export function createChatService(deps: { bus: EventBus; logger: Logger }): ChatCompletionService {
  return new ChatCompletionService({ bus: deps.bus, logger: deps.logger, providerFor: chatProviderFor });
}

/** The messages-format side of the chat service (POST /v1/messages). */
export function createMessagesService(deps: { bus: EventBus; logger: Logger }): MessagesService {
  return new MessagesService({ bus: deps.bus, logger: deps.logger, providerFor: messagesProviderFor });
}
