import { fuzzSuite } from './support/fuzz-suite';
import { startStandalone } from './support/stacks';

describe('standalone: property-based hostile input', () => fuzzSuite(() => startStandalone()));
