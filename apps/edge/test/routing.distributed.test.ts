import { routingSuite } from './support/routing-suite';
import { startDistributed } from './support/stacks';

describe('distributed: UNIGATE_CONFIG routing and failover', () => routingSuite((env) => startDistributed({ ...env, LOG_LEVEL: 'info' })));
