export { createChatService, createMessagesService } from './create-chat';
export { ChatCompletionService } from './domain/chat-completion.service';
export { MessagesService } from './domain/messages.service';
