import { Controller, Get, Inject, Req, UseGuards } from '@nestjs/common';
import type { CatalogPort } from '@unigate/contracts';
import type { FastifyRequest } from 'fastify';
import { ApiKeyGuard, principalOf } from '../auth/api-key.guard';
import { CATALOG_PORT } from '../tokens';
import { modelsForKey } from './models-for-key';

/** GET /v1/models: OpenAI's list shape, only what the key may use, plus family and kind. */
@Controller('v1')
@UseGuards(ApiKeyGuard)
export class ModelsController {
  constructor(@Inject(CATALOG_PORT) private readonly catalog: CatalogPort) {}

  @Get('models')
  async list(@Req() request: FastifyRequest) {
    const allowed = await modelsForKey(this.catalog, principalOf(request));
    return {
      object: 'list',
      data: allowed.map((m) => ({ id: m.id, object: 'model', created: m.created, owned_by: m.owned_by, family: m.family, kind: m.kind })),
    };
  }
}
