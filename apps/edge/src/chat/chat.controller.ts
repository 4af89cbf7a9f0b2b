import { Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { chatCompletionRequestSchema, parseOrThrow, renderShapeB, type ChatCompletionChunk } from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Authenticator } from '../auth/authenticator';
import { sendError, toGatewayError } from '../http/error-renderer';
import { streamSse } from '../http/sse';
import { EDGE_LOGGER } from '../tokens';
import { ChatCompletionsUseCase } from './chat-completions.use-case';

@Controller('v1/chat')
export class ChatController {
  constructor(
    private readonly auth: Authenticator,
    private readonly useCase: ChatCompletionsUseCase,
    @Inject(EDGE_LOGGER) private readonly logger: Logger,
  ) {}

  @Post('completions')
  @HttpCode(200)
  async completions(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const body = parseOrThrow(chatCompletionRequestSchema, request.body);
    const principal = await this.auth.authenticate(request);
    const call = await this.useCase.prepare(principal, body, String(request.id));
    if (!body.stream) {
      await reply.send(await this.useCase.complete(call));
      return;
    }
    await streamSse<ChatCompletionChunk>(reply, {
      open: (signal) => this.useCase.stream(call, signal),
      encode: (chunk) => JSON.stringify(chunk),
      terminator: '[DONE]',
      encodeError: (err) => JSON.stringify(renderShapeB(toGatewayError(err, this.logger, call.request_id))),
      onEarlyError: (err) => sendError(reply, request, toGatewayError(err, this.logger, call.request_id), 'B', body.model),
    });
  }
}
