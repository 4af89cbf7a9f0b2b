import {
  catalogSnapshotSchema,
  modelInfoSchema,
  modelRouteSchema,
  type CatalogPort,
  type CatalogSnapshot,
  type ModelInfo,
  type ModelRoute,
} from '@unigate/contracts';
import { decodeJson } from './wire-json';
import { CONTROL_CALL, grpcClient, unary } from './grpc-client';
import type { CatalogServiceClient, CatalogSnapshot__Output, ModelList__Output, Route__Output } from '@unigate/proto';

/**
 * Catalog over gRPC; routes, models and snapshots are decoded against their contracts schemas. The
 * edge resolves from its own copy (CatalogReplica) fed by `snapshot()`.
 */
export class GrpcCatalogClient implements CatalogPort {
  private readonly client: CatalogServiceClient;

  constructor(url: string) {
    this.client = grpcClient('catalog', url);
  }

  async resolve(model: string): Promise<ModelRoute> {
    const reply = await unary<{ model: string }, Route__Output>(this.client.Resolve.bind(this.client), { model }, CONTROL_CALL);
    return decodeJson(modelRouteSchema, reply.route, 'route', 'peer');
  }

  /** The whole catalogue, for the edge's own copy (catalog/catalog-replica.ts). */
  async snapshot(): Promise<CatalogSnapshot> {
    const reply = await unary<object, CatalogSnapshot__Output>(this.client.Snapshot.bind(this.client), {}, CONTROL_CALL);
    return decodeJson(catalogSnapshotSchema, reply.snapshot, 'catalog snapshot', 'peer');
  }

  async list(): Promise<ModelInfo[]> {
    const reply = await unary<object, ModelList__Output>(this.client.List.bind(this.client), {}, CONTROL_CALL);
    return reply.models.map((m) => decodeJson(modelInfoSchema, m, 'model', 'peer'));
  }
}
