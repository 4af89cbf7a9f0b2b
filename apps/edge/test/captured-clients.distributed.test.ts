import { capturedClientsSuite } from './support/captured-clients-suite';
import { startDistributed } from './support/stacks';

describe('distributed: what Claude Code and Codex really send', () => capturedClientsSuite(() => startDistributed()));
