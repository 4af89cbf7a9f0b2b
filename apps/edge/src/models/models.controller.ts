import { Controller, Get, Inject, Param, Req, UseGuards } from '@nestjs/common';
import {
  anthropicModelInfo,
  anthropicModelsQuerySchema,
  cursorPage,
  errors,
  GatewayError,
  parseOrThrow,
  speaksAnthropic,
  type CatalogPort,
  type ModelInfo,
} from '@unigate/contracts';
import type { FastifyRequest } from 'fastify';
import { AnthropicKeyGuard, principalOf } from '../auth/api-key.guard';
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
 * GET /v1/models/{model}: one of them (the SDKs' `models.retrieve`), also by an alias (the model it
 * names); a model the key may not use is as unknown to it as one that does not exist (404
 * model_not_found), as the list does not show it either.
 *
 * An Anthropic client (`anthropic-version` on the request; its key may come as `x-api-key`) gets
 * Anthropic's Models API instead: the same models (SPEC: every model the key may access), newest
 * first, a page at a time by `limit`, `after_id` and `before_id`.
 */
@Controller('v1')
@UseGuards(AnthropicKeyGuard)
export class ModelsController {
  constructor(@Inject(CATALOG_PORT) private readonly catalog: CatalogPort) {}

  @Get('models')
  async list(@Req() request: FastifyRequest) {
    if (speaksAnthropic(request.headers)) {
      const query = parseOrThrow(anthropicModelsQuerySchema, request.query ?? {});
      const models = await this.anthropicModels(request);
      const page = cursorPage(models, { after: query.after_id, before: query.before_id, limit: query.limit }, ANTHROPIC_CURSORS, noModel);
      return { ...page, data: page.data.map(anthropicModelInfo) };
    }
    const allowed = await modelsForKey(this.catalog, principalOf(request));
    return { object: 'list', data: allowed.map(modelObject) };
  }

  @Get('models/:model')
  async retrieve(@Req() request: FastifyRequest, @Param('model') id: string) {
    const anthropic = speaksAnthropic(request.headers);
    const models = anthropic ? await this.anthropicModels(request) : await modelsForKey(this.catalog, principalOf(request));
    const model = models.find((m) => m.id === id) ?? (await this.aliased(id, models));
    if (!model) throw errors.modelNotFound(id);
    return anthropic ? anthropicModelInfo(model) : modelObject(model);
  }

  /**
   * The model an alias (`claude-opus-5-5`) names, as the chat endpoints resolve it, when the key may use
   * it: Anthropic's Models API answers an alias with the model it stands for, and a client checking its
   * configured model by name must not be told that what it can call does not exist.
   */
  private async aliased(id: string, models: ModelInfo[]): Promise<ModelInfo | undefined> {
    // Only "no such model" reads as no alias; a catalogue that cannot answer stays the error it is.
    const route = await this.catalog.resolve(id).catch((err: unknown) => {
      if (GatewayError.is(err) && err.status === 404) return undefined;
      throw err;
    });
    return route && models.find((m) => m.id === route.model.id);
  }

  /** The key's models in Anthropic's order: newest first (then by id). */
  private async anthropicModels(request: FastifyRequest): Promise<ModelInfo[]> {
    const models = await modelsForKey(this.catalog, principalOf(request));
    return [...models].sort((a, b) => b.created - a.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}

const ANTHROPIC_CURSORS = { after: 'after_id', before: 'before_id' };
// Anthropic's error shape has no `param`: the message names the cursor.
const noModel = (id: string, field: string) => `Invalid '${field}': no model with id '${id}' in this list.`;
