import { responsesSuite } from './support/responses-suite';
import { startStandalone } from './support/stacks';

describe('standalone: POST /v1/responses', () => responsesSuite((env) => startStandalone(env)));
