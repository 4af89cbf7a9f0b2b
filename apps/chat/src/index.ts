export { createChatService } from './create-chat';
export { ChatCompletionService } from './domain/chat-completion.service';
