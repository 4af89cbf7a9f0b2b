/** Shared e2e scaffolding: one deployment per suite, and clients for it. */
import OpenAI from 'openai';
import type { Stack } from './stacks';

/** Starts the deployment before the suite and stops it after; `ready` hands it to the suite. */
export function useStack(start: () => Promise<Stack>, ready: (stack: Stack) => void): void {
  let stack: Stack | undefined;
  beforeAll(async () => {
    stack = await start();
    ready(stack);
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });
}

/** The official OpenAI client on a deployment (no retries: every answer is the gateway's own). */
export const openaiFor = (stack: Stack, apiKey = stack.apiKey, baseURL = stack.baseURL) => new OpenAI({ baseURL, apiKey, maxRetries: 0 });

// Response bodies are checked field by field by the tests; their static type is deliberately loose.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;
/** A response's JSON body, for field-by-field assertions. */
export const json = (res: Response): Promise<Loose> => res.json();
