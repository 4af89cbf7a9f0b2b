/**
 * The catalog service as a Nest module: builds the catalogue from process.env when the app starts (a bad
 * UNIGATE_CONFIG fails the start with a message naming the field) and serves it over gRPC.
 */
import { Module } from '@nestjs/common';
import { createLogger } from '@unigate/platform';
import { createCatalog } from './create-catalog';
import { CATALOG_PORT } from './catalog.tokens';
import { CatalogGrpcController } from './transport/catalog.grpc.controller';

export { CATALOG_PORT } from './catalog.tokens';

@Module({
  controllers: [CatalogGrpcController],
  providers: [
    {
      provide: CATALOG_PORT,
      useFactory: () => {
        const catalog = createCatalog({ env: process.env });
        // Names and counts only: channels carry API keys.
        createLogger('catalog').info(
          { config: process.env.UNIGATE_CONFIG || null, models: catalog.listNow().length, aliases: Object.keys(catalog.aliases()) },
          'catalog loaded',
        );
        return catalog;
      },
    },
  ],
  exports: [CATALOG_PORT],
})
export class CatalogAppModule {}
