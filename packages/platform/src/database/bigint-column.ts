/**
 * Postgres `bigint` ⇄ JS number for integer amounts (micro-USD, counters). node-postgres returns int8
 * as a string so nothing is silently rounded; this transformer converts at the entity boundary and
 * refuses values a JS number cannot hold exactly (2^53 micro-USD ≈ 9 billion USD).
 */
import type { ValueTransformer } from 'typeorm';

export function parseBigint(value: string | number | bigint | null | undefined): number {
  if (value === null || value === undefined) return 0;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`bigint value ${String(value)} is not a safe integer`);
  return n;
}

export const bigintTransformer: ValueTransformer = {
  to: (value: number | null | undefined) => {
    if (value === null || value === undefined) return value;
    if (!Number.isSafeInteger(value)) throw new Error(`refusing to store non-integer amount ${value}`);
    return String(value);
  },
  from: (value: string | null) => (value === null ? null : parseBigint(value)),
};
