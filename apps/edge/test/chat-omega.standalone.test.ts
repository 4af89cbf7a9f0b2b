import { chatOmegaSuite } from './support/chat-omega-suite';
import { startStandalone } from './support/stacks';

describe('standalone: omega-k3 reasoning chat', () => chatOmegaSuite(() => startStandalone()));
