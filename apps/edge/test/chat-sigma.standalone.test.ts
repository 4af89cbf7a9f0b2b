import { chatSigmaSuite } from './support/chat-sigma-suite';
import { startStandalone } from './support/stacks';

describe('standalone: chat completions on a sigma model (Anthropic Messages upstream)', () => chatSigmaSuite(() => startStandalone()));
