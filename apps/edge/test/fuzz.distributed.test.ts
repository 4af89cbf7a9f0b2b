import { fuzzSuite } from './support/fuzz-suite';
import { startDistributed } from './support/stacks';

// The same cases across the gRPC hop to the chat service (strings that are not valid UTF-8 included).
describe('distributed: property-based hostile input', () => fuzzSuite(() => startDistributed()));
