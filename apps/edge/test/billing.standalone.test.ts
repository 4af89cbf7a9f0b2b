import { billingSuite } from './support/billing-suite';
import { startStandalone } from './support/stacks';

describe('standalone: exact money', () => billingSuite(() => startStandalone()));
