import { billingSuite } from './support/billing-suite';
import { startDistributed } from './support/stacks';

describe('distributed: exact money', () => billingSuite(() => startDistributed()));
