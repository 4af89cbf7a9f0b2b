import { messagesSuite } from './support/messages-suite';
import { startStandalone } from './support/stacks';

// sigma: native pass-through; gamma and omega: translated from and to chat-completions upstreams.
describe('standalone: POST /v1/messages', () =>
  messagesSuite(() => startStandalone(), ['sigma-sonnet-4-6', 'gamma-2.5-flash', 'omega-k3']));
