/**
 * Answer ids in each protocol's own form, keeping the upstream's characters: OpenAI's chat
 * completions are `chatcmpl-…`, Anthropic's messages `msg_…`. An id already in the target's form stays.
 */
export function anthropicMessageId(chatId: string): string {
  return chatId.startsWith('msg_') ? chatId : `msg_${chatId.replace(/^chatcmpl-/, '')}`;
}

export function chatCompletionId(messageId: string): string {
  return messageId.startsWith('chatcmpl-') ? messageId : `chatcmpl-${messageId.replace(/^msg_/, '')}`;
}
