import '@unigate/platform/telemetry-register';
import { runService } from '@unigate/platform/distributed';
import { CatalogAppModule } from './catalog.module';

void runService({ name: 'catalog', module: CatalogAppModule, grpc: true, defaultHttpPort: 8081, defaultGrpcPort: 50051 });
