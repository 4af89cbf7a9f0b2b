import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { errors } from '@unigate/contracts';
import { BearerSecret } from '@unigate/platform';
import type { FastifyRequest } from 'fastify';
import { EDGE_OPTIONS } from '../tokens';
import type { EdgeOptions } from '../edge-options';

/** Admin API: `Authorization: Bearer $UNIGATE_ADMIN_TOKEN`, compared in constant time. */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly secret: BearerSecret;

  constructor(@Inject(EDGE_OPTIONS) options: EdgeOptions) {
    this.secret = new BearerSecret(options.adminToken);
  }

  canActivate(ctx: ExecutionContext): boolean {
    checkAdminToken(ctx.switchToHttp().getRequest<FastifyRequest>(), this.secret);
    return true;
  }
}

/** Throws unless the request carries the admin token (also for admin routes registered on Fastify directly). */
export function checkAdminToken(request: FastifyRequest, secret: BearerSecret): void {
  if (!secret.matches(request.headers.authorization)) throw errors.unauthorizedAdmin();
}
