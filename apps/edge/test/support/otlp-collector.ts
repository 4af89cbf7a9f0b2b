/** A minimal OTLP/HTTP JSON trace receiver: collects every exported span for assertions. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CollectedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

interface OtlpAttr {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean };
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttr[];
}

interface OtlpResourceSpans {
  resource?: { attributes?: OtlpAttr[] };
  scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
}

function attrs(list: OtlpAttr[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map((a) => [a.key, a.value.stringValue ?? a.value.intValue ?? a.value.boolValue]));
}

function flatten(rs: OtlpResourceSpans): CollectedSpan[] {
  const service = String(attrs(rs.resource?.attributes)['service.name']);
  const out: CollectedSpan[] = [];
  for (const scope of rs.scopeSpans ?? []) {
    for (const s of scope.spans ?? []) {
      out.push({
        service,
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId || undefined,
        name: s.name,
        kind: s.kind,
        attributes: attrs(s.attributes),
      });
    }
  }
  return out;
}

export async function startCollector() {
  const spans: CollectedSpan[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const payload = JSON.parse(Buffer.concat(parts).toString() || '{}') as { resourceSpans?: OtlpResourceSpans[] };
        for (const rs of payload.resourceSpans ?? []) spans.push(...flatten(rs));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A suite's stack exporting its spans to a collector of its own (OTLP/HTTP JSON, flushed every 100
 * ms): both start before the suite's tests and stop after them. Read `stack` and `collector` inside
 * the tests.
 */
export function tracedStack<S extends { stop(): Promise<void> }>(
  start: (env: Record<string, string>) => Promise<S>,
  env: Record<string, string> = {},
) {
  const traced = {} as { stack: S; collector: Awaited<ReturnType<typeof startCollector>> };
  beforeAll(async () => {
    traced.collector = await startCollector();
    traced.stack = await start({
      OTEL_EXPORTER_OTLP_ENDPOINT: traced.collector.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      ...env,
    });
  }, 120_000);
  afterAll(async () => {
    await traced.stack?.stop();
    await traced.collector?.close();
  });
  return traced;
}
