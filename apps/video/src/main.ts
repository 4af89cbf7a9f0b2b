import '@unigate/platform/telemetry-register';
import { runService } from '@unigate/platform';
import { VideoAppModule } from './video.module';

void runService({ name: 'video', module: VideoAppModule, defaultHttpPort: 8080 });
