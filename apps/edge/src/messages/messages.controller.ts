import { Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import {
  anthropicCountTokensRequestSchema,
  anthropicMessagesRequestSchema,
  parseOrThrow,
  renderAnthropic,
  type AnthropicStreamEvent,
} from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Authenticator } from '../auth/authenticator';
import { ErrorShapeOf } from '../http/error-shape';
import { sendError, toGatewayError } from '../http/error-renderer';
import { OverheadClock } from '../http/overhead-clock';
import { streamSse } from '../http/sse';
import { KEY_LIMITER, type KeyLimiter } from '../limits/key-limiter';
import { releasedAtEnd, releaseOnClose } from '../limits/lease-scope';
import { EDGE_LOGGER } from '../tokens';
import { MessagesUseCase } from './messages.use-case';

/**
 * The messages format, for the Anthropic SDK and Claude Code: `x-api-key` or Bearer, the
 * `anthropic-version`/`anthropic-beta` headers accepted, errors in Anthropic's shape.
 */
@Controller('v1/messages')
export class MessagesController {
  constructor(
    private readonly auth: Authenticator,
    private readonly useCase: MessagesUseCase,
    @Inject(KEY_LIMITER) private readonly limiter: KeyLimiter,
    @Inject(EDGE_LOGGER) private readonly logger: Logger,
  ) {}

  @Post()
  @HttpCode(200)
  @ErrorShapeOf('anthropic')
  async create(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const body = parseOrThrow(anthropicMessagesRequestSchema, request.body);
    const principal = await this.auth.authenticate(request, { allowXApiKey: true });
    const requestId = String(request.id);
    void reply.header('request-id', requestId);
    const clock = new OverheadClock(reply);
    const lease = await this.limiter.acquire(principal, requestId);
    releaseOnClose(reply.raw, lease);
    try {
      const call = await this.useCase.prepare(principal, body, requestId, betas(request));
      if (!body.stream) {
        const message = await clock.downstream(this.useCase.create(call));
        clock.stamp();
        await lease.release();
        await reply.send(message);
        return;
      }
      await streamSse<AnthropicStreamEvent>(reply, {
        open: (signal) => releasedAtEnd(clock.firstItemDownstream(this.useCase.stream(call, signal)), lease),
        beforeHeaders: () => clock.stamp(),
        encode: (event) => JSON.stringify(event),
        eventName: (event) => event.type,
        errorEventName: 'error',
        encodeError: (err) => JSON.stringify(renderAnthropic(toGatewayError(err, this.logger, requestId), requestId)),
        onEarlyError: (err) => sendError(reply, request, toGatewayError(err, this.logger, requestId), 'anthropic', body.model),
      });
    } finally {
      await lease.release();
    }
  }

  @Post('count_tokens')
  @HttpCode(200)
  @ErrorShapeOf('anthropic')
  async countTokens(@Req() request: FastifyRequest) {
    const body = parseOrThrow(anthropicCountTokensRequestSchema, request.body);
    const principal = await this.auth.authenticate(request, { allowXApiKey: true });
    return this.useCase.countTokens(principal, body, String(request.id), betas(request));
  }
}

function betas(request: FastifyRequest): string[] {
  const raw = request.headers['anthropic-beta'];
  const list = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  return list
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
}
