import { chatOmegaSuite } from './support/chat-omega-suite';
import { startDistributed } from './support/stacks';

describe('distributed: omega-k3 reasoning chat', () => chatOmegaSuite(() => startDistributed()));
