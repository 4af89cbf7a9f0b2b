import { mediaSuite } from './support/media-suite';
import { startDistributed } from './support/stacks';

describe('distributed: media endpoints (embeddings, speech) from the media service over gRPC', () =>
  mediaSuite((env) => startDistributed(env)));
