import { responsesSuite } from './support/responses-suite';
import { startDistributed } from './support/stacks';

describe('distributed: POST /v1/responses', () => responsesSuite((env) => startDistributed(env)));
