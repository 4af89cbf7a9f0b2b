import { startStandalone } from './support/stacks';
import { videoSuite } from './support/video-suite';

describe('standalone: video tasks', () => videoSuite((env) => startStandalone(env)));
