import { HOSTILE_ENV, hostileHttpSuite } from './support/hostile-http-suite';
import { startStandalone } from './support/stacks';

describe('standalone: hostile and careless clients', () => hostileHttpSuite(() => startStandalone(HOSTILE_ENV)));
