import { Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { chatCompletionRequestSchema, parseOrThrow, renderShapeB, type ChatCompletionChunk } from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Authenticator } from '../auth/authenticator';
import { sendError, toGatewayError } from '../http/error-renderer';
import { OverheadClock } from '../http/overhead-clock';
import { streamSse } from '../http/sse';
import { KEY_LIMITER, type KeyLimiter } from '../limits/key-limiter';
import { releasedAtEnd, releaseOnClose } from '../limits/lease-scope';
import { EDGE_LOGGER } from '../tokens';
import { ChatCompletionsUseCase } from './chat-completions.use-case';

@Controller('v1/chat')
export class ChatController {
  constructor(
    private readonly auth: Authenticator,
    private readonly useCase: ChatCompletionsUseCase,
    @Inject(KEY_LIMITER) private readonly limiter: KeyLimiter,
    @Inject(EDGE_LOGGER) private readonly logger: Logger,
  ) {}

  @Post('completions')
  @HttpCode(200)
  async completions(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const body = parseOrThrow(chatCompletionRequestSchema, request.body);
    const principal = await this.auth.authenticate(request);
    const clock = new OverheadClock(reply);
    // Limits before the hold: a throttled request costs billing nothing (lease-scope.ts: when the slot returns).
    const lease = await this.limiter.acquire(principal, String(request.id));
    releaseOnClose(reply.raw, lease);
    try {
      const call = await this.useCase.prepare(principal, body, String(request.id));
      if (!body.stream) {
        const completion = await clock.downstream(this.useCase.complete(call));
        clock.stamp();
        await lease.release();
        await reply.send(completion);
        return;
      }
      await streamSse<ChatCompletionChunk>(reply, {
        open: (signal) => releasedAtEnd(clock.firstItemDownstream(this.useCase.stream(call, signal)), lease),
        beforeHeaders: () => clock.stamp(),
        encode: (chunk) => JSON.stringify(chunk),
        terminator: '[DONE]',
        encodeError: (err) => JSON.stringify(renderShapeB(toGatewayError(err, this.logger, call.request_id))),
        onEarlyError: (err) => sendError(reply, request, toGatewayError(err, this.logger, call.request_id), 'B', body.model),
      });
    } finally {
      await lease.release();
    }
  }
}
