import { DASHBOARD_ENV, dashboardSuite } from './support/dashboard-suite';
import { startStandalone } from './support/stacks';

describe('standalone: sign-up and dashboard in Chromium', () => dashboardSuite('standalone', () => startStandalone(DASHBOARD_ENV)));
