/**
 * Builds the edge HTTP application (Fastify under Nest) around a set of ports and a key limiter. The
 * distributed edge process and the standalone process both call this; only the ports and the limiter
 * (Redis or in-memory) differ.
 */
import 'reflect-metadata';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory, Reflector } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { keyRevokedSchema, TOPICS } from '@unigate/contracts';
import { ObservabilityModule, PinoNestLogger, Readiness, type EventBus, type Logger } from '@unigate/platform';
import { Authenticator } from './auth/authenticator';
import { EdgeModule, type EdgePorts } from './edge.module';
import type { EdgeOptions } from './edge-options';
import { BODY_LIMIT_BYTES } from './http/error-renderer';
import { GatewayExceptionFilter } from './http/exception.filter';
import { registerJsonBodyParser } from './http/json-body';
import { newRequestId, registerRequestHooks } from './http/request-id';
import type { KeyLimiter } from './limits/key-limiter';

export interface EdgeAppOptions extends EdgeOptions {
  ports: EdgePorts;
  logger: Logger;
  /** Where key.revoked arrives; each edge instance consumes every revocation. */
  bus?: EventBus;
  instanceId: string;
  /** Per-key rate and concurrency limits; the caller owns it (and closes it after the app). */
  limiter: KeyLimiter;
}

export async function createEdgeApp(opts: EdgeAppOptions): Promise<INestApplication> {
  const adapter = new FastifyAdapter({ bodyLimit: BODY_LIMIT_BYTES, genReqId: newRequestId, logger: false, trustProxy: true });
  const fastify = adapter.getInstance();
  registerJsonBodyParser(fastify);
  registerRequestHooks(fastify);

  @Module({ imports: [ObservabilityModule, EdgeModule.register(opts.ports, { adminToken: opts.adminToken }, opts.logger, opts.limiter)] })
  class EdgeRoot {}

  const app = await NestFactory.create<NestFastifyApplication>(EdgeRoot, adapter, {
    logger: new PinoNestLogger(opts.logger),
    bodyParser: false,
  });
  app.useGlobalFilters(new GatewayExceptionFilter(app.get(Reflector), opts.logger));

  if (opts.bus) {
    const auth = app.get(Authenticator);
    await opts.bus.subscribe(TOPICS.keyRevoked, `edge-${opts.instanceId}`, async (payload) => {
      auth.revoked(keyRevokedSchema.parse(payload).key_hash);
    });
  }
  app.get(Readiness).add('edge', async () => undefined);
  app.get(Readiness).add('limits', () => opts.limiter.checkReady());
  return app;
}
