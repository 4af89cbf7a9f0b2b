import { Controller, Get, Inject, Param, Req, UseGuards } from '@nestjs/common';
import { errors, type CatalogPort, type ModelInfo } from '@unigate/contracts';
import type { FastifyRequest } from 'fastify';
import { ApiKeyGuard, principalOf } from '../auth/api-key.guard';
import { CATALOG_PORT } from '../tokens';
import { modelsForKey } from './models-for-key';

/** A model as OpenAI's model object, plus family and kind. */
const modelObject = (m: ModelInfo) => ({
  id: m.id,
  object: 'model',
  created: m.created,
  owned_by: m.owned_by,
  family: m.family,
  kind: m.kind,
});

/**
 * GET /v1/models: OpenAI's list shape, only what the key may use, plus family and kind.
 * GET /v1/models/{model}: one of them (the SDKs' `models.retrieve`); a model the key may not use is
 * as unknown to it as one that does not exist (404 model_not_found), as the list does not show it either.
 */
@Controller('v1')
@UseGuards(ApiKeyGuard)
export class ModelsController {
  constructor(@Inject(CATALOG_PORT) private readonly catalog: CatalogPort) {}

  @Get('models')
  async list(@Req() request: FastifyRequest) {
    const allowed = await modelsForKey(this.catalog, principalOf(request));
    return { object: 'list', data: allowed.map(modelObject) };
  }

  @Get('models/:model')
  async retrieve(@Req() request: FastifyRequest, @Param('model') id: string) {
    const model = (await modelsForKey(this.catalog, principalOf(request))).find((m) => m.id === id);
    if (!model) throw errors.modelNotFound(id);
    return modelObject(model);
  }
}
