import { limitsSuite } from './support/limits-suite';
import { startDistributed } from './support/stacks';

describe('distributed, three edge replicas sharing one Redis: per-key limits', () => limitsSuite(() => startDistributed({}, { edges: 3 })));
