/** gRPC face of the catalogue (proto/catalog.proto): bodies are JSON strings of contracts shapes. */
import { Controller, Inject } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import type { CatalogPort } from '@unigate/contracts';
import { toRpcException } from '@unigate/platform';
import { CATALOG_PORT } from '../catalog.tokens';

@Controller()
export class CatalogGrpcController {
  constructor(@Inject(CATALOG_PORT) private readonly catalog: CatalogPort) {}

  @GrpcMethod('CatalogService', 'Resolve')
  async resolve(req: { model?: string }): Promise<{ json: string }> {
    try {
      return { json: JSON.stringify(await this.catalog.resolve(req.model ?? '')) };
    } catch (err) {
      throw toRpcException(err);
    }
  }

  @GrpcMethod('CatalogService', 'List')
  async list(): Promise<{ json: string }> {
    try {
      return { json: JSON.stringify(await this.catalog.list()) };
    } catch (err) {
      throw toRpcException(err);
    }
  }
}
