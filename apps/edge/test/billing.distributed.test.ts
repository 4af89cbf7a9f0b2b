import { billingSuite } from './support/billing-suite';
import { startDistributed } from './support/stacks';

// Three edges admitting against one account through the shared Redis: no replica can overspend it.
describe('distributed (3 edge replicas): exact money', () => billingSuite(() => startDistributed({}, { edges: 3 })));
