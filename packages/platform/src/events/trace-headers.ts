/**
 * W3C trace context across the bus: publishers inject the active context (unless the caller passed a
 * traceparent explicitly); consumers run the handler inside the extracted context so a consumer's
 * spans join the trace of the request that produced the event. Both are no-ops without a propagator.
 */
import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';

export function withTraceHeaders(headers: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers.traceparent) propagation.inject(context.active(), out);
  return { ...out, ...headers };
}

export function runInTraceContext<T>(headers: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  return context.with(propagation.extract(ROOT_CONTEXT, headers), fn);
}
