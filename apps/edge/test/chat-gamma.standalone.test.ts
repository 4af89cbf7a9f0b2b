import { chatGammaSuite } from './support/chat-gamma-suite';
import { startStandalone } from './support/stacks';

describe('standalone: gamma chat over Gemini generateContent', () => chatGammaSuite(() => startStandalone()));
