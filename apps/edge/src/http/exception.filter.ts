import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ErrorShape } from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_SHAPE } from './error-shape';
import { sendError, toGatewayError } from './error-renderer';

/** Renders every error thrown by a controller in the shape its endpoint speaks. */
@Catch()
export class GatewayExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly reflector: Reflector,
    private readonly logger: Logger,
  ) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<FastifyReply>();
    const request = ctx.getRequest<FastifyRequest>();
    if (reply.sent || reply.raw.headersSent) return;
    const handler = (host as unknown as { getHandler?: () => object }).getHandler?.();
    // Errors raised before a handler runs (body parsing) have no handler metadata: fall back to the path.
    const shape = (handler && this.reflector.get<ErrorShape>(ERROR_SHAPE, handler as never)) || shapeForPath(request.url);
    const model = (request.body as { model?: unknown } | undefined)?.model;
    return sendError(reply, request, toGatewayError(exception, this.logger, String(request.id)), shape, typeof model === 'string' ? model : undefined);
  }
}

function shapeForPath(url: string): ErrorShape {
  return url.startsWith('/v1/messages') ? 'anthropic' : 'B';
}
