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
  // Database errors carry the statement's parameters (key hashes among them) and row details.
  'err.parameters',
  'err.detail',
  'err.driverError.parameters',
  'err.driverError.detail',
  // Postgres quotes the offending input in `where` (e.g. a JSON parameter).
  'err.where',
  'err.driverError.where',
  'key_hash',
  '*.key_hash',
];

export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info', destination?: pino.DestinationStream): Logger {
  // pino's own refusal ("default level:verbose must be included in custom levels") names no variable.
  if (!(level in pino.levels.values) && level !== 'silent') {
    throw new Error(`LOG_LEVEL must be one of: ${[...Object.keys(pino.levels.values), 'silent'].join(', ')} (got "${level}")`);
  }
  const options: pino.LoggerOptions = {
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
  };
  return destination ? pino(options, destination) : pino(options);
}
