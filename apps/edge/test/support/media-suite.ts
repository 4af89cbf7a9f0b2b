/**
 * The media endpoints (embeddings, speech, delta images) end to end on one deployment: one stack for every case,
 * so the suite pays for one start per deployment.
 */
import type OpenAI from 'openai';
import { Admin } from './admin';
import { alphaImagesCases, TEST_LINK_SECRET } from './alpha-images-cases';
import { embeddingsCases } from './embeddings-cases';
import { gammaImagesCases } from './gamma-images-cases';
import { imagesCases } from './images-cases';
import { SimControl } from './sim-control';
import { speechCases } from './speech-cases';
import type { Stack } from './stacks';
import { openaiFor, useStack } from './use-stack';

/** `start` gets the environment the suite needs: a known link secret (to forge an expired link). */
export function mediaSuite(start: (env: Record<string, string>) => Promise<Stack>) {
  let ctx: { stack: Stack; client: OpenAI; admin: Admin; sim: SimControl };
  useStack(
    () => start({ UNIGATE_LINK_SECRET: TEST_LINK_SECRET }),
    (stack) => {
      ctx = { stack, client: openaiFor(stack), admin: new Admin(stack), sim: new SimControl(stack) };
    },
  );
  afterEach(() => ctx?.sim.clearFaults());

  embeddingsCases(() => ctx);
  speechCases(() => ctx);
  imagesCases(() => ctx);
  alphaImagesCases(() => ctx);
  gammaImagesCases(() => ctx);
}
