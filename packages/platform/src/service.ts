/**
 * Boots one NestJS service process: its gRPC server on GRPC_PORT and a small Fastify HTTP server on
 * PORT for /health/* and /metrics. Every service main.ts is a one-line call to this.
 */
import 'reflect-metadata';
import { Module, type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { LOADER_OPTIONS, SERVICES, type ServiceName } from '@unigate/proto';
import { z } from 'zod';
import { port, readEnv } from './env';
import { createLogger } from './logger';
import { PinoNestLogger } from './nest-logger';
import { ObservabilityModule } from './observability/observability.module';

export interface ServiceOptions {
  name: string;
  module: Type<unknown> | DynamicModule;
  /** Which proto service this process serves; omit for HTTP-only shells. */
  grpc?: ServiceName;
  defaultHttpPort?: number;
  defaultGrpcPort?: number;
}

const serviceEnv = z.object({ PORT: port(0), GRPC_PORT: port(0), HOST: z.string().default('0.0.0.0') });

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
  const env = readEnv(serviceEnv.extend({ PORT: port(opts.defaultHttpPort ?? 0), GRPC_PORT: port(opts.defaultGrpcPort ?? 0) }));
  const logger = createLogger(opts.name);
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

  @Module({ imports: [ObservabilityModule, opts.module] })
  class ServiceRoot {}

  const app = await NestFactory.create(ServiceRoot, new FastifyAdapter(), { logger: new PinoNestLogger(logger) });
  app.enableShutdownHooks();
  if (opts.grpc) {
    const svc = SERVICES[opts.grpc];
    app.connectMicroservice<MicroserviceOptions>({
      transport: Transport.GRPC,
      options: {
        package: svc.package,
        protoPath: svc.protoPath,
        url: `${env.HOST}:${env.GRPC_PORT}`,
        loader: { ...LOADER_OPTIONS },
      },
    });
    await app.startAllMicroservices();
  }
  await app.listen(env.PORT, env.HOST);
  logger.info({ http: await app.getUrl(), grpc: opts.grpc ? env.GRPC_PORT : undefined }, `${opts.name} started`);
  return app;
}
