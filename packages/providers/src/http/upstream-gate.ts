/**
 * A held call's upstream requests wait here for its admission. Over a hop the edge hands a call to its
 * service while it is still admitting it (limits and the hold, a Redis round trip); the runner then
 * translates the call and builds its upstream request meanwhile, and the outbound clients (HttpClient,
 * safeFetch) send nothing before the admission resolves — a refused call never reaches an upstream.
 * Keyed on the call's AbortSignal, which every upstream request carries (as upstream-wait.ts does).
 */
const gates = new WeakMap<AbortSignal, Promise<void>>();

/** Upstream requests sent with `signal` wait for `admission`, and fail with its error. */
export function gateUpstreamsOf(signal: AbortSignal, admission: Promise<void>): void {
  gates.set(signal, admission);
}

/** Resolves when a request sent with `signal` may go out (at once for a call that is not held). */
export function upstreamGate(signal: AbortSignal | undefined): Promise<void> | undefined {
  return signal && gates.get(signal);
}
