import { authFirstSuite } from './support/auth-first-suite';
import { startDistributed } from './support/stacks';

describe('distributed: authentication before the body', () => authFirstSuite(() => startDistributed()));
