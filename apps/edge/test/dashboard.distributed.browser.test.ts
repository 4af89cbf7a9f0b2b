import { DASHBOARD_ENV, dashboardSuite } from './support/dashboard-suite';
import { startDistributed } from './support/stacks';

// Two edge replicas: sessions and log-in throttles live in Redis, so either replica serves the user.
describe('distributed: sign-up and dashboard in Chromium', () =>
  dashboardSuite('distributed', () => startDistributed(DASHBOARD_ENV, { edges: 2 })));
