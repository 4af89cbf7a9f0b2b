import { Controller, Get, Inject, Req } from '@nestjs/common';
import type { CatalogPort } from '@unigate/contracts';
import type { FastifyRequest } from 'fastify';
import { Authenticator } from '../auth/authenticator';
import { CATALOG_PORT } from '../tokens';

/** GET /v1/models: OpenAI's list shape, only what the key may use, plus family and kind. */
@Controller('v1')
export class ModelsController {
  constructor(
    private readonly auth: Authenticator,
    @Inject(CATALOG_PORT) private readonly catalog: CatalogPort,
  ) {}

  @Get('models')
  async list(@Req() request: FastifyRequest) {
    const principal = await this.auth.authenticate(request);
    const models = await this.catalog.list();
    const allowed = principal.models.length ? models.filter((m) => principal.models.includes(m.id)) : models;
    return {
      object: 'list',
      data: allowed.map((m) => ({ id: m.id, object: 'model', created: m.created, owned_by: m.owned_by, family: m.family, kind: m.kind })),
    };
  }
}
