/**
 * Spans for calls on sessions. The gRPC instrumentation would see one long-lived Session stream per
 * session and put every call on it in the trace of the request that opened it, so it ignores Session
 * (telemetry.ts) and each call gets its own spans here: a CLIENT span in the caller, whose context
 * travels in the call's traceparent, and a SERVER span in the service, inside which the service's work
 * runs (its upstream call and usage event join the request's trace). Without an SDK the API is a no-op.
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';

const tracer = trace.getTracer('@unigate/platform');
const SERVICE = 'unigate.endpoint.v1.EndpointService';
const SPAN_NAME = `grpc.${SERVICE}/Session`;
const attributes = (endpoint: string) => ({
  'rpc.system': 'grpc',
  'rpc.service': SERVICE,
  'rpc.method': 'Session',
  'unigate.endpoint': endpoint,
});

/** The caller's span for one call, and the traceparent that continues the trace in the service. */
export function startSessionCallSpan(endpoint: string): { span: Span; traceparent?: string } {
  const span = tracer.startSpan(SPAN_NAME, { kind: SpanKind.CLIENT, attributes: attributes(endpoint) });
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), carrier);
  return { span, traceparent: carrier.traceparent };
}

/** Ends `span`, marked failed when `err` is given. */
export function endSpan(span: Span, err?: unknown): void {
  if (err !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
  span.end();
}

/** `open()`'s items, each produced inside a SERVER span that continues `traceparent`'s trace. */
export async function* serveInSpan<T>(endpoint: string, traceparent: string | undefined, open: () => AsyncIterable<T>): AsyncGenerator<T> {
  const parent = traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
  const span = tracer.startSpan(SPAN_NAME, { kind: SpanKind.SERVER, attributes: attributes(endpoint) }, parent);
  const active: Context = trace.setSpan(parent, span);
  let failure: unknown;
  try {
    const items = context.with(active, () => open()[Symbol.asyncIterator]());
    try {
      for (;;) {
        const next = await context.with(active, () => items.next());
        if (next.done) return;
        yield next.value;
      }
    } finally {
      await context.with(active, async () => items.return?.());
    }
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    endSpan(span, failure);
  }
}
