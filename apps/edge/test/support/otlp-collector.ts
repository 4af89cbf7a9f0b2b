/** A minimal OTLP/HTTP JSON trace receiver: collects every exported span for assertions. */
import { createServer, type Server } from 'node:http';
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

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpAttr {
  key: string;
  value: OtlpValue;
}

const attrs = (list: OtlpAttr[] = []) =>
  Object.fromEntries(list.map((a) => [a.key, a.value.stringValue ?? a.value.intValue ?? a.value.boolValue]));

export async function startCollector(): Promise<{ endpoint: string; spans: CollectedSpan[]; close(): Promise<void> }> {
  const spans: CollectedSpan[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const payload = JSON.parse(body || '{}');
        for (const rs of payload.resourceSpans ?? []) {
          const service = String(attrs(rs.resource?.attributes)['service.name']);
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              spans.push({ service, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId || undefined, name: s.name, kind: s.kind, attributes: attrs(s.attributes) });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, spans, close: () => new Promise((r) => server.close(() => r())) };
}
