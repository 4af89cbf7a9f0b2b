import { errors, GatewayError, type CatalogPort, type KeyPrincipal, type ModelInfo, type ModelRoute } from '@unigate/contracts';
import type { FastifyRequest } from 'fastify';
import { ModelsController } from './models.controller';

const opus = { id: 'sigma-opus-4-7', created: 1, owned_by: 'sigma', family: 'sigma', kind: 'chat' } as ModelInfo;
const request = { headers: {}, principal: { models: [] } as unknown as KeyPrincipal } as unknown as FastifyRequest;

function controller(resolve: (id: string) => Promise<ModelRoute>) {
  const catalog: CatalogPort = { list: async () => [opus], resolve };
  return new ModelsController(catalog);
}

describe('GET /v1/models/{model} by an alias', () => {
  it('answers with the model the alias names', async () => {
    const models = controller(async () => ({ model: opus, channels: [] }) as unknown as ModelRoute);
    expect(await models.retrieve(request, 'claude-opus-5-5')).toMatchObject({ id: 'sigma-opus-4-7', object: 'model' });
  });

  it('is a 404 for a name neither a model nor an alias', async () => {
    const models = controller(async (id) => {
      throw errors.modelNotFound(id);
    });
    await expect(models.retrieve(request, 'no-such-model')).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });

  it('keeps a catalogue that cannot answer the error it is, not a 404', async () => {
    const unavailable = new GatewayError({
      status: 503,
      code: 'catalog_unavailable',
      message: 'The catalog is not ready.',
      retryable: true,
    });
    const models = controller(async () => {
      throw unavailable;
    });
    await expect(models.retrieve(request, 'claude-opus-5-5')).rejects.toBe(unavailable);
  });
});
