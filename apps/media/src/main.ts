import '@unigate/platform/telemetry-register';
import { runService } from '@unigate/platform/distributed';
import { MediaAppModule } from './media.module';

void runService({ name: 'media', module: MediaAppModule, grpc: true, defaultHttpPort: 8081, defaultGrpcPort: 50051 });
