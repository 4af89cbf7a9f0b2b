import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Logger } from '@unigate/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { replyWithError } from './error-renderer';

/** Nest's side of the one error renderer: controller errors, and Fastify's for routes Nest registered. */
@Catch()
export class GatewayExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const ctx = host.switchToHttp();
    return replyWithError(exception, ctx.getRequest<FastifyRequest>(), ctx.getResponse<FastifyReply>(), this.logger);
  }
}
