import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Authenticator, type AuthOptions } from './authenticator';

/**
 * The API key check of the edge's Nest routes (model list, quota): the same authentication the
 * pipeline's routes run as a hook, leaving the caller on `request.principal`.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  protected readonly options: AuthOptions = {};

  constructor(private readonly auth: Authenticator) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const request = ctx.switchToHttp().getRequest<FastifyRequest>();
    request.principal = await this.auth.authenticate(request, this.options);
    return true;
  }
}

/** The same check, also taking Anthropic's `x-api-key` header: routes Anthropic clients call too (the model list). */
@Injectable()
export class AnthropicKeyGuard extends ApiKeyGuard {
  protected override readonly options: AuthOptions = { allowXApiKey: true };
}

/** The principal an ApiKeyGuard accepted. */
export function principalOf(request: FastifyRequest) {
  if (!request.principal) throw new Error('ApiKeyGuard did not run for this route');
  return request.principal;
}
