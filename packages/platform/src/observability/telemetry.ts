/**
 * OpenTelemetry: one trace follows a request from the edge through gRPC, Kafka and the upstream HTTP
 * call. Must start before the instrumented libraries are loaded, hence the separate
 * `@unigate/platform/telemetry-register` entry that every main.ts imports first.
 *
 * Off unless someone collects the traces: the SDK and its instrumentations are loaded only when an
 * exporter is configured (OTEL_EXPORTER_OTLP_ENDPOINT, or OTEL_TRACES_EXPORTER other than `none`).
 * Without them nothing is patched and log lines carry no trace ids. Sampling follows the standard
 * OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG variables (default: parentbased_always_on).
 */
import type { Attributes } from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';

let sdk: NodeSDK | undefined;

/**
 * Query parameters an incoming request's span keeps as REDACTED: the instrumentation's own list (its
 * default, which giving any list replaces) and `signature`, the credential of our signed file links
 * (storage/signed-links.ts: anyone holding the whole link reads the file for a day).
 */
export const REDACTED_QUERY_PARAMS = [
  'sig',
  'Signature',
  'AWSAccessKeyId',
  'X-Goog-Signature',
  'X-Amz-Signature',
  'X-Amz-Credential',
  'X-Amz-Security-Token',
  'signature',
];

/**
 * An outgoing call's URL attributes with every query value REDACTED (the names stay): a webhook URL is
 * the client's own and often carries its token in the query, and an upstream base URL may carry a key.
 * A signed webhook delivery (standard-webhooks' `webhook-signature`) keeps its path out too: Slack's
 * and Discord's hooks carry their token in it. Returned from undici's startSpanHook, whose attributes
 * replace the ones the instrumentation set.
 */
export function outgoingUrlAttributes(request: { origin: string; path: string; headers?: unknown }): Attributes {
  let url: URL;
  try {
    url = new URL(request.path, request.origin);
  } catch {
    return {}; // the instrumentation skips a request it cannot parse either
  }
  const webhook = hasHeader(request.headers, 'webhook-signature');
  if (!url.search && !webhook) return {};
  url.search = new URLSearchParams([...url.searchParams.keys()].map((name): [string, string] => [name, 'REDACTED'])).toString();
  if (webhook) url.pathname = '/REDACTED';
  return { 'url.full': url.toString(), 'url.path': url.pathname, 'url.query': url.search };
}

/** undici hands a request's headers to diagnostics as `name: value` lines or as [name, value, …]. */
function hasHeader(headers: unknown, name: string): boolean {
  if (typeof headers === 'string') return headers.toLowerCase().includes(`${name}:`);
  if (Array.isArray(headers)) for (let i = 0; i < headers.length; i += 2) if (String(headers[i]).toLowerCase() === name) return true;
  return false;
}

const ENABLED = [
  '@opentelemetry/instrumentation-http',
  '@opentelemetry/instrumentation-grpc',
  '@opentelemetry/instrumentation-kafkajs',
  '@opentelemetry/instrumentation-undici',
  '@opentelemetry/instrumentation-pg',
  '@opentelemetry/instrumentation-ioredis',
];

/** Whether traces are exported anywhere; without an exporter, tracing is not started at all. */
export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter) return exporter !== 'none';
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

export function startTelemetry(serviceName: string): void {
  if (sdk || !tracingConfigured()) return;
  process.env.OTEL_SERVICE_NAME ??= `unigate-${serviceName}`;
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  // Loaded here, not at the top: a process without an exporter never pays for the SDK.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeSDK: Sdk } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { getNodeAutoInstrumentations } =
    require('@opentelemetry/auto-instrumentations-node') as typeof import('@opentelemetry/auto-instrumentations-node');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const instrumentations = onlyOurInstrumentations(() =>
    getNodeAutoInstrumentations({
      // Calls on a Session stream get spans of their own (grpc/session-tracing.ts), not the stream's.
      '@opentelemetry/instrumentation-grpc': { ignoreGrpcMethods: ['Session'] },
      '@opentelemetry/instrumentation-http': { redactedQueryParamsServer: REDACTED_QUERY_PARAMS },
      '@opentelemetry/instrumentation-undici': { startSpanHook: outgoingUrlAttributes },
    }),
  );
  sdk = new Sdk({ instrumentations });
  sdk.start();
}

/**
 * getNodeAutoInstrumentations constructs every instrumentation it knows (~40), and each one patches
 * its library as it is constructed: dropping it from the list handed to the SDK afterwards left it
 * patching and emitting spans (the AWS SDK's in media and video, Express, OpenAI's client). Its own
 * OTEL_NODE_ENABLED_INSTRUMENTATIONS makes it construct only ours; an operator's list of that name
 * can narrow them further, and OTEL_NODE_DISABLED_INSTRUMENTATIONS still applies.
 */
function onlyOurInstrumentations<T>(build: () => T[]): T[] {
  const variable = 'OTEL_NODE_ENABLED_INSTRUMENTATIONS';
  const operators = process.env[variable];
  const ours = ENABLED.map((name) => name.replace('@opentelemetry/instrumentation-', ''));
  const allowed = operators ? operators.split(',').map((name) => name.trim()) : ours;
  const names = ours.filter((name) => allowed.includes(name));
  // An empty list would read as unset, which enables them all.
  if (names.length === 0) return [];
  process.env[variable] = names.join(',');
  try {
    return build();
  } finally {
    if (operators === undefined) delete process.env[variable];
    else process.env[variable] = operators;
  }
}

export async function stopTelemetry(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
  sdk = undefined;
}
