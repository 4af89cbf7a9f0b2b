/**
 * OpenTelemetry: one trace follows a request from the edge through gRPC, Kafka and the upstream HTTP
 * call. Must start before the instrumented libraries are loaded, hence the separate
 * `@unigate/platform/telemetry-register` entry that every main.ts imports first.
 *
 * Spans are exported over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set; without it trace context is
 * still created and propagated (log lines carry trace ids), but nothing is exported.
 */
import { NodeSDK } from '@opentelemetry/sdk-node';
import { getNodeAutoInstrumentations } from '@opentelemetry/auto-instrumentations-node';

let sdk: NodeSDK | undefined;

const ENABLED = [
  '@opentelemetry/instrumentation-http',
  '@opentelemetry/instrumentation-grpc',
  '@opentelemetry/instrumentation-kafkajs',
  '@opentelemetry/instrumentation-undici',
  '@opentelemetry/instrumentation-pg',
  '@opentelemetry/instrumentation-ioredis',
];

export function startTelemetry(serviceName: string): void {
  if (sdk || process.env.OTEL_SDK_DISABLED === 'true') return;
  process.env.OTEL_SERVICE_NAME ??= `unigate-${serviceName}`;
  if (!process.env.OTEL_EXPORTER_OTLP_ENDPOINT && !process.env.OTEL_TRACES_EXPORTER) {
    process.env.OTEL_TRACES_EXPORTER = 'none';
  }
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  const instrumentations = getNodeAutoInstrumentations(
    Object.fromEntries(
      [
        '@opentelemetry/instrumentation-fs',
        '@opentelemetry/instrumentation-dns',
        '@opentelemetry/instrumentation-net',
        '@opentelemetry/instrumentation-nestjs-core',
        '@opentelemetry/instrumentation-runtime-node',
        '@opentelemetry/instrumentation-pino',
      ].map((n) => [n, { enabled: false }]),
    ),
  ).filter((i) => ENABLED.includes(i.instrumentationName));
  sdk = new NodeSDK({ instrumentations });
  sdk.start();
}

export async function stopTelemetry(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
  sdk = undefined;
}
