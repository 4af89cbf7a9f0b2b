/**
 * Boots one NestJS service process: a small Fastify HTTP server on PORT for /health/* and /metrics
 * and, for services that have one, the gRPC server on GRPC_PORT serving the handlers the service's
 * module provides under GRPC_HANDLERS. Every service main.ts is a one-line call to this.
 */
import 'reflect-metadata';
import { Injectable, Module, type BeforeApplicationShutdown, type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { hostPort, listenHost } from '@unigate/contracts';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { z } from 'zod';
import { port, readEnv } from './env';
import { startGrpcServer, type GrpcHandlers, type GrpcServer } from './grpc/grpc-server';
import { createLogger } from './logger';
import { PinoNestLogger } from './nest-logger';
import { ObservabilityModule } from './observability/observability.module';
import { Readiness } from './observability/readiness';
import { lazySchemaCompilers } from './http/lazy-schema-compilers';
import { applyHeapGrowth } from './lifecycle/heap-growth';
import { SHUTDOWN_SIGNALS, shutdownTimeoutMs } from './lifecycle/shutdown';

/** Injection token: the GrpcHandlers a service module serves. */
export const GRPC_HANDLERS = Symbol('GRPC_HANDLERS');

export interface ServiceOptions {
  name: string;
  module: Type<unknown> | DynamicModule;
  /** True when the module provides GRPC_HANDLERS; HTTP-only shells leave it out. */
  grpc?: boolean;
  defaultHttpPort?: number;
  defaultGrpcPort?: number;
}

const serviceEnv = z.object({ PORT: port(0), GRPC_PORT: port(0), HOST: listenHost() });

/**
 * Owns the process's gRPC server. On shutdown (Nest's SIGTERM hook) the process stops being ready
 * first, then running calls — streams included — get the shutdown deadline to finish before the
 * modules shut down (and flush what they queued).
 */
@Injectable()
class GrpcHost implements BeforeApplicationShutdown {
  server?: GrpcServer;

  constructor(private readonly readiness: Readiness) {}

  async beforeApplicationShutdown(): Promise<void> {
    this.readiness.drain();
    await this.server?.close(shutdownTimeoutMs());
  }
}

/** Starts the service; a service that cannot start (bad env, port taken) exits at once with status 1. */
export async function runService(opts: ServiceOptions): Promise<INestApplication> {
  try {
    return await startService(opts);
  } catch (err) {
    createLogger(opts.name).fatal({ err }, `${opts.name} failed to start`);
    process.exit(1);
  }
}

async function startService(opts: ServiceOptions): Promise<INestApplication> {
  applyHeapGrowth();
  const env = readEnv(serviceEnv.extend({ PORT: port(opts.defaultHttpPort ?? 0), GRPC_PORT: port(opts.defaultGrpcPort ?? 0) }));
  const logger = createLogger(opts.name);
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

  @Module({ imports: [ObservabilityModule.withMetricsToken(process.env.UNIGATE_METRICS_TOKEN), opts.module], providers: [GrpcHost] })
  class ServiceRoot {}

  const app = await NestFactory.create(ServiceRoot, new FastifyAdapter({ schemaController: lazySchemaCompilers() }), {
    logger: new PinoNestLogger(logger),
  });
  // Not Nest's default list: it also takes SIGUSR2 (a heap snapshot or diagnostic report asked of a
  // running service would shut it down) and the fault signals (a real segfault could hang the process).
  app.enableShutdownHooks([...SHUTDOWN_SIGNALS]);
  if (opts.grpc) {
    const handlers = app.get<GrpcHandlers>(GRPC_HANDLERS, { strict: false });
    app.get(GrpcHost).server = await startGrpcServer(hostPort(env.HOST, env.GRPC_PORT), handlers);
  }
  await app.listen(env.PORT, env.HOST);
  logger.info({ http: await app.getUrl(), grpc: opts.grpc ? env.GRPC_PORT : undefined }, `${opts.name} started`);
  return app;
}
