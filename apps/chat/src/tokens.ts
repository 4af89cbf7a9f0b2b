/** Nest injection tokens for the chat domain services (a ChatPort and a MessagesPort). */
export const CHAT_SERVICE = Symbol('CHAT_SERVICE');
export const MESSAGES_SERVICE = Symbol('MESSAGES_SERVICE');
