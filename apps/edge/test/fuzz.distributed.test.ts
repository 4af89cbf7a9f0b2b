import { fuzzSuite } from './support/fuzz-suite';
import { startDistributed } from './support/stacks';

// Across the gRPC hop to the chat service (strings that are not valid UTF-8 included): half as many
// cases as standalone runs, drawn from the next seed, so the two suites together cover new ground
// instead of sending the same cases through the same pipeline twice.
describe('distributed: property-based hostile input', () => fuzzSuite(() => startDistributed(), { seedOffset: 1, runsShare: 0.5 }));
