import { ChatResponses1737000000000 } from './1737000000000-chat-responses';
import { ResponsesItemsText1738000000000 } from './1738000000000-responses-items-text';
import { ResponsesChain1739000000000 } from './1739000000000-responses-chain';
import { ResponsesConversationId1740000000000 } from './1740000000000-responses-conversation-id';
import { ResponsesRewrittenTurn1741000000000 } from './1741000000000-responses-rewritten-turn';
import { ResponsesAnswer1742000000000 } from './1742000000000-responses-answer';

/** Every chat migration, oldest first (classes, so bundling and tests need no globbing). */
export const CHAT_MIGRATIONS = [
  ChatResponses1737000000000,
  ResponsesItemsText1738000000000,
  ResponsesChain1739000000000,
  ResponsesConversationId1740000000000,
  ResponsesRewrittenTurn1741000000000,
  ResponsesAnswer1742000000000,
];
