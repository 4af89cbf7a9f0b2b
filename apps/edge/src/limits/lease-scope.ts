/**
 * When a request gives its concurrency slot back. Three moments, whichever comes first:
 * - its answer is complete or failed — before the last byte reaches the client, so a client that
 *   sends its next request the moment this one ends never finds its own slot still taken;
 * - its client disconnects — at once, not when the upstream call has wound down;
 * - the handler returns or throws (the backstop; Lease.release is idempotent).
 */
import type { ServerResponse } from 'node:http';
import { NO_LEASE, type Lease } from './key-limiter';

/** `source` item by item; the slot goes back when it ends, fails or is abandoned. */
export async function* releasedAtEnd<T>(source: AsyncIterable<T>, lease: Lease): AsyncGenerator<T> {
  try {
    yield* source;
  } finally {
    await lease.release();
  }
}

/** The slot goes back when the response closes, including a client that goes away mid-request. */
export function releaseOnClose(raw: ServerResponse, lease: Lease): void {
  if (lease === NO_LEASE) return;
  raw.once('close', () => void lease.release());
}
