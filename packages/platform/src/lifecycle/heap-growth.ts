/**
 * How far V8 lets the old generation grow past what survived the last full collection:
 * `UNIGATE_HEAP_GROWING_PERCENT`, 25 by default (the limit becomes live × 1.25), 0 for V8's own
 * heuristics. V8's default grows the heap up to 4× when collection looks cheap, so a service holding
 * ~40 MiB of live objects grew to 160–190 MiB of heap (280–310 MiB RSS) under load, almost all of it
 * garbage. Unlike `--max-old-space-size` this is no ceiling: the limit follows the live size, so a
 * burst of large requests is collected sooner, never refused with an out-of-memory crash.
 *
 * The flag is not accepted in NODE_OPTIONS, and V8 reads it at each collection, so it is set at start.
 */
import { setFlagsFromString } from 'node:v8';

export const DEFAULT_HEAP_GROWING_PERCENT = 25;

export function heapGrowingPercent(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.UNIGATE_HEAP_GROWING_PERCENT;
  if (raw === undefined || raw.trim() === '') return DEFAULT_HEAP_GROWING_PERCENT;
  const percent = Number(raw);
  if (!Number.isInteger(percent) || percent < 0 || percent > 300) {
    throw new Error(`UNIGATE_HEAP_GROWING_PERCENT must be a whole number from 0 (V8's default) to 300, got '${raw}'`);
  }
  return percent;
}

/** Applies UNIGATE_HEAP_GROWING_PERCENT to this process; returns the percent (0: left to V8). */
export function applyHeapGrowth(env: NodeJS.ProcessEnv = process.env): number {
  const percent = heapGrowingPercent(env);
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
  return percent;
}
