/** Input guards for the domain: amounts are integer micro-USD, ids are UUIDs (anything else is a 404, not a 500). */
import { errors } from '@unigate/contracts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * An id as billing keeps it: a UUID in lower case, as Postgres prints it. Postgres compares UUIDs
 * whatever their case, but live money (balances in memory or in Redis) and the webhook secrets are
 * keyed by the text: an operator's `ABCD…` must not be another account there. Anything else is
 * returned as it is (it matches nothing: a 404).
 */
export function canonicalId(value: string): string {
  return isUuid(value) ? value.toLowerCase() : value;
}

export function requireMicros(value: number, field: string, { positive = false } = {}): number {
  if (!Number.isSafeInteger(value) || value < 0 || (positive && value === 0)) {
    throw errors.invalidRequest(`${field} must be a ${positive ? 'positive' : 'non-negative'} whole number of micro-USD`, field);
  }
  return value;
}
