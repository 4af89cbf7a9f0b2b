import { authFirstSuite } from './support/auth-first-suite';
import { startStandalone } from './support/stacks';

describe('standalone: authentication before the body', () => authFirstSuite(() => startStandalone()));
