import { shutdownSuite } from './support/shutdown-suite';
import { startStandalone } from './support/stacks';

describe('standalone: graceful shutdown', () => shutdownSuite(() => startStandalone(), 'standalone'));
