import { chatGammaSuite } from './support/chat-gamma-suite';
import { startDistributed } from './support/stacks';

describe('distributed: gamma chat over Gemini generateContent', () => chatGammaSuite(() => startDistributed()));
