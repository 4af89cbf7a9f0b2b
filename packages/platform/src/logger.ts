/**
 * pino JSON logs. Secrets never reach a log line: auth headers and key material are redacted by
 * path, and callers log key ids, never keys.
 */
import pino, { type Logger } from 'pino';
import { trace } from '@opentelemetry/api';

export type { Logger } from 'pino';

const REDACT = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'headers.authorization',
  'headers["x-api-key"]',
  'authorization',
  'api_key',
  'apiKey',
  'key',
  '*.api_key',
  '*.key',
];

export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    redact: { paths: REDACT, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // Every line written inside an active span carries its trace id, so logs join traces.
    mixin() {
      const ctx = trace.getActiveSpan()?.spanContext();
      return ctx ? { trace_id: ctx.traceId, span_id: ctx.spanId } : {};
    },
  });
}
