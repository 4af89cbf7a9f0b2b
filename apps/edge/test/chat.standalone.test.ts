import { chatSuite } from './support/chat-suite';
import { startStandalone } from './support/stacks';

describe('standalone (npm start): chat completions', () => chatSuite(() => startStandalone()));
