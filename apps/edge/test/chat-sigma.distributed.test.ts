import { chatSigmaSuite } from './support/chat-sigma-suite';
import { startDistributed } from './support/stacks';

describe('distributed: chat completions on a sigma model (Anthropic Messages upstream)', () => chatSigmaSuite(() => startDistributed()));
