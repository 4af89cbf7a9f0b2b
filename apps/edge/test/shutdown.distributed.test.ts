import { shutdownSuite } from './support/shutdown-suite';
import { startDistributed } from './support/stacks';

describe('distributed: graceful shutdown of an edge', () => shutdownSuite(() => startDistributed(), 'edge'));
