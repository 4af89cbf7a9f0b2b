import { routingSuite } from './support/routing-suite';
import { startStandalone } from './support/stacks';

describe('standalone: UNIGATE_CONFIG routing and failover', () => routingSuite((env) => startStandalone({ ...env, LOG_LEVEL: 'info' })));
