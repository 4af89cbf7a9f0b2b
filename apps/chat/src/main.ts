import '@unigate/platform/telemetry-register';
import { runService } from '@unigate/platform/distributed';
import { ChatAppModule } from './chat.module';

void runService({ name: 'chat', module: ChatAppModule, grpc: true, defaultHttpPort: 8081, defaultGrpcPort: 50051 });
