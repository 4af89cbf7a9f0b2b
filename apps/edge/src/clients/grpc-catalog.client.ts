import type { CatalogPort, ModelInfo, ModelRoute } from '@unigate/contracts';
import type { ModelList__Output, Route__Output } from '@unigate/proto';
import { grpcStub, unary, type GrpcStub } from './grpc-client';

/**
 * Catalog over gRPC. Not cached here: resolve() makes the weighted channel choice per request, and
 * caching its answer would freeze that choice.
 */
export class GrpcCatalogClient implements CatalogPort {
  private readonly stub: GrpcStub;

  constructor(url: string) {
    this.stub = grpcStub('catalog', url);
  }

  async resolve(model: string): Promise<ModelRoute> {
    const reply = await unary<Route__Output>(this.stub, 'Resolve', { model });
    return JSON.parse(reply.json) as ModelRoute;
  }

  async list(): Promise<ModelInfo[]> {
    const reply = await unary<ModelList__Output>(this.stub, 'List', {});
    return JSON.parse(reply.json) as ModelInfo[];
  }
}
