import '@unigate/platform/telemetry-register';
import { runService } from '@unigate/platform/distributed';
import { CatalogAppModule } from './catalog.module';

runService({ name: 'catalog', module: CatalogAppModule, grpc: true });
