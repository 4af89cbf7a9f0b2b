export * from './logger';
export * from './env';
export * from './nest-logger';
export * from './events/event-bus';
export * from './grpc/wire-json';
export * from './events/usage-recorder';
export * from './observability/metrics';
export * from './observability/readiness';
export * from './observability/observability.module';
export * from './observability/upstream-observer';
export { startTelemetry, stopTelemetry } from './observability/telemetry';
export * from './events/kafka-event-bus';
export * from './events/in-memory-event-bus';
export * from './events/service-event-bus';
export * from './auth/bearer-secret';
export * from './lifecycle/http-drain';
export * from './http/lazy-schema-compilers';
export * from './lifecycle/shutdown';
export * from './lifecycle/heap-growth';
export * from './lifecycle/lean-async-resource-bind';
export * from './storage/object-store';
export * from './storage/fs-object-store';
export * from './storage/signed-links';
export * from './storage/s3-object-store';
export * from './storage/result-storage';
export * from './storage/result-links';
export * from './process-ids';
// The database helpers are `@unigate/platform/database` (src/database/index.ts); the gRPC transport and
// the service host `@unigate/platform/distributed` (src/distributed.ts).
