/** gRPC face of the catalogue (proto/catalog.proto): routes, models and the snapshot as JSON bytes of contracts shapes. */
import { encodeJson } from '@unigate/platform';
import { unaryHandler } from '@unigate/platform/distributed';
import type { CatalogServiceHandlers } from '@unigate/proto';
import { toSnapshot, type CatalogService } from '../lookup';

export function catalogGrpcHandlers(catalog: CatalogService): CatalogServiceHandlers {
  // The data never changes while the service runs: encode its snapshot once.
  const snapshot = encodeJson(toSnapshot(catalog.snapshotData()));
  return {
    Resolve: unaryHandler(async (req) => ({ route: encodeJson(await catalog.resolve(req.model)) })),
    List: unaryHandler(async () => ({ models: (await catalog.list()).map((m) => encodeJson(m)) })),
    Snapshot: unaryHandler(async () => ({ snapshot })),
  };
}
