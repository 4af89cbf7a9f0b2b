/**
 * W3C trace context across the bus: publishers inject the active context (unless the caller passed a
 * traceparent explicitly); consumers handle each event inside a CONSUMER span that is a child of the
 * extracted context, so the consumer's work joins the trace of the request that produced the event.
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = trace.getTracer('unigate-event-bus');

export function withTraceHeaders(headers: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers.traceparent) propagation.inject(context.active(), out);
  return { ...out, ...headers };
}

export function runInTraceContext<T>(topic: string, headers: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  return tracer.startActiveSpan(
    `${topic} process`,
    { kind: SpanKind.CONSUMER, attributes: { 'messaging.destination.name': topic, 'messaging.operation.type': 'process' } },
    parent,
    async (span) => {
      try {
        return await fn();
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}
