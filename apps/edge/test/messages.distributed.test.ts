import { messagesSuite } from './support/messages-suite';
import { startDistributed } from './support/stacks';

describe('distributed: POST /v1/messages', () =>
  messagesSuite(() => startDistributed(), ['sigma-sonnet-4-6', 'gamma-2.5-flash', 'omega-k3']));
