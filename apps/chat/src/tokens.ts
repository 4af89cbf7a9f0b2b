/** Nest injection token for the chat domain service (a ChatPort). */
export const CHAT_SERVICE = Symbol('CHAT_SERVICE');
