import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { errors } from '@unigate/contracts';
import type { FastifyRequest } from 'fastify';
import { EDGE_OPTIONS } from '../tokens';
import type { EdgeOptions } from '../edge-options';

/** Admin API: `Authorization: Bearer $UNIGATE_ADMIN_TOKEN`, compared in constant time. */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(EDGE_OPTIONS) options: EdgeOptions) {
    this.expected = Buffer.from(options.adminToken);
  }

  canActivate(ctx: ExecutionContext): boolean {
    const header = ctx.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? '');
    if (this.expected.length === 0 || given.length !== this.expected.length || !timingSafeEqual(given, this.expected)) {
      throw errors.unauthorizedAdmin();
    }
    return true;
  }
}
