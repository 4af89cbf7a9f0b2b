import { mediaSuite } from './support/media-suite';
import { startStandalone } from './support/stacks';

describe('standalone: media endpoints (embeddings, speech)', () => mediaSuite((env) => startStandalone(env)));
