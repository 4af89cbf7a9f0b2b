import { diag, DiagLogLevel } from '@opentelemetry/api';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the spec needs of an instrumentation: to undo its patches. */
interface Instrumentation {
  disable(): void;
}

// The SDK itself is not started: what matters is which instrumentations exist (each one patches its
// library as it is constructed), and the SDK is handed the list it would start.
const started: Instrumentation[][] = [];
jest.mock('@opentelemetry/sdk-node', () => ({
  NodeSDK: class {
    constructor(private readonly config: { instrumentations: Instrumentation[] }) {}
    start() {
      started.push(this.config.instrumentations);
    }
    async shutdown() {}
  },
}));

import { startTelemetry, stopTelemetry, tracingConfigured } from './telemetry';

const OURS = ['http', 'grpc', 'kafkajs', 'undici', 'pg', 'ioredis'].map((n) => `@opentelemetry/instrumentation-${n}`);

/** Starts telemetry and returns what `use` makes of the instrumentations the SDK was handed. */
async function inspectStarted<T>(use: (instrumentations: Instrumentation[]) => T): Promise<T> {
  const saved = { ...process.env };
  try {
    process.env.OTEL_TRACES_EXPORTER = 'otlp';
    startTelemetry('spec');
    return await use(started.flat());
  } finally {
    for (const i of started.flat()) i.disable();
    started.length = 0;
    await stopTelemetry();
    process.env = saved;
  }
}

/** Starts telemetry with `env` set and returns the instrumentations constructed, by name. */
async function constructedWith(env: Record<string, string>): Promise<string[]> {
  const saved = { ...process.env };
  const loaded: string[] = [];
  const record = (message: string) => {
    const name = /^Loading instrumentation for (.+)$/.exec(message)?.[1];
    if (name) loaded.push(name);
  };
  diag.setLogger({ debug: record, verbose: () => {}, info: () => {}, warn: () => {}, error: () => {} }, DiagLogLevel.DEBUG);
  try {
    Object.assign(process.env, { OTEL_TRACES_EXPORTER: 'otlp' }, env);
    startTelemetry('spec');
    expect(process.env.OTEL_NODE_ENABLED_INSTRUMENTATIONS).toBe(env.OTEL_NODE_ENABLED_INSTRUMENTATIONS);
    return loaded;
  } finally {
    diag.disable();
    for (const i of started.flat()) i.disable();
    started.length = 0;
    await stopTelemetry();
    process.env = saved;
  }
}

describe('telemetry', () => {
  it('is off without an exporter', () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingConfigured({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
  });

  it('constructs only the instrumentations it uses: the others would patch their libraries all the same', async () => {
    expect((await constructedWith({})).sort()).toEqual([...OURS].sort());
  });

  it("narrows them to an operator's OTEL_NODE_ENABLED_INSTRUMENTATIONS, never widens them", async () => {
    expect(await constructedWith({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'http,express' })).toEqual(['@opentelemetry/instrumentation-http']);
    expect(await constructedWith({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'express' })).toEqual([]);
  });

  it("keeps the signature of a signed file link (GET /v1/files/{key}?expires=…&signature=…) out of an incoming request's span", async () => {
    const query = await inspectStarted((instrumentations) => {
      const http = instrumentations.find(
        (i) => (i as { instrumentationName?: string }).instrumentationName === '@opentelemetry/instrumentation-http',
      );
      const config = (http as unknown as { getConfig(): { redactedQueryParamsServer?: string[] } }).getConfig();
      // As the instrumentation writes url.query (utils.ts, getIncomingRequestAttributes): its default list unless configured.
      /* eslint-disable @typescript-eslint/no-require-imports */
      const { redactQueryString } = require('@opentelemetry/instrumentation-http/build/src/utils') as {
        redactQueryString(params: URLSearchParams, redact: string[]): string;
      };
      const { DEFAULT_QUERY_STRINGS_TO_REDACT } = require('@opentelemetry/instrumentation-http/build/src/internal-types') as {
        DEFAULT_QUERY_STRINGS_TO_REDACT: string[];
      };
      /* eslint-enable @typescript-eslint/no-require-imports */
      const redacted = config.redactedQueryParamsServer ?? DEFAULT_QUERY_STRINGS_TO_REDACT;
      return redactQueryString(new URLSearchParams('expires=1796180415&signature=IgFbAm1bM2NOh4ch&X-Amz-Signature=abc'), redacted);
    });
    expect(query).toBe('expires=1796180415&signature=REDACTED&X-Amz-Signature=REDACTED');
  });

  it("keeps query values (a webhook's token, an upstream key) out of an outgoing call's span, names kept, and a signed webhook's path", async () => {
    const server: Server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const spans = await inspectStarted(async (instrumentations) => {
        const undici = instrumentations.find(
          (i) => (i as { instrumentationName?: string }).instrumentationName === '@opentelemetry/instrumentation-undici',
        ) as unknown as { setTracerProvider(provider: unknown): void };
        const { tracing } = jest.requireActual<typeof import('@opentelemetry/sdk-node')>('@opentelemetry/sdk-node');
        const exporter = new tracing.InMemorySpanExporter();
        undici.setTracerProvider(new tracing.BasicTracerProvider({ spanProcessors: [new tracing.SimpleSpanProcessor(exporter)] }));
        // Node's fetch is undici too: both publish the diagnostics channels the instrumentation reads.
        await (await fetch(`${base}/hooks/video?token=hunter2&tenant=t-1&token=second`, { method: 'POST', body: '{}' })).text();
        await (await fetch(`${base}/v1/chat/completions`, { method: 'POST', body: '{}' })).text();
        // A signed webhook delivery to a hook whose token is its path (Slack's, Discord's).
        const signed = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1', 'webhook-signature': 'v1,abc' };
        await (await fetch(`${base}/services/T1/B2/hook-secret`, { method: 'POST', body: '{}', headers: signed })).text();
        return exporter.getFinishedSpans().map((span) => span.attributes);
      });
      expect(spans).toHaveLength(3);
      expect(spans[0]['url.full']).toBe(`${base}/hooks/video?token=REDACTED&tenant=REDACTED&token=REDACTED`);
      expect(spans[0]['url.query']).toBe('?token=REDACTED&tenant=REDACTED&token=REDACTED');
      expect(JSON.stringify(spans)).not.toContain('hunter2');
      expect(spans[1]['url.full']).toBe(`${base}/v1/chat/completions`);
      expect(spans[2]).toMatchObject({ 'url.full': `${base}/REDACTED`, 'url.path': '/REDACTED' });
      expect(JSON.stringify(spans)).not.toContain('hook-secret');
    } finally {
      server.close();
    }
  });
});
