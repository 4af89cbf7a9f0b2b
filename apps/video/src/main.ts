import '@unigate/platform/telemetry-register';
import { runService } from '@unigate/platform/distributed';
import { VideoAppModule } from './video.module';

void runService({ name: 'video', module: VideoAppModule, grpc: true, defaultHttpPort: 8082, defaultGrpcPort: 50052 });
