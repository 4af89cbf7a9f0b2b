import { startDistributed } from './support/stacks';
import { videoSuite } from './support/video-suite';

describe('distributed: video tasks (video service, BullMQ pollers)', () => videoSuite((env) => startDistributed(env)));
