/**
 * `@unigate/platform/distributed`: what only the distributed deployment loads — the gRPC transport
 * (clients, handlers, pooled sessions) and the service host that serves it (runService). Standalone
 * composes every service in one process from the package index and never loads @grpc/grpc-js, the
 * proto definitions or protobufjs (about 110 modules).
 */
export * from './service';
export * from './grpc/errors';
export * from './grpc/grpc-server';
export * from './grpc/grpc-client';
export * from './grpc/endpoint-transport';
export * from './grpc/video-task-transport';
export * from './grpc/stored-response-transport';
export * from './grpc/grpc-catalog-client';
