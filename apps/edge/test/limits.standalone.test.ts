import { limitsSuite } from './support/limits-suite';
import { startStandalone } from './support/stacks';

describe('standalone (in-memory limiter): per-key limits', () => limitsSuite(() => startStandalone()));
