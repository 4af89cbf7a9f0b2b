import '@unigate/platform/telemetry-register';
import { runService } from '@unigate/platform';
import { MediaAppModule } from './media.module';

void runService({ name: 'media', module: MediaAppModule, defaultHttpPort: 8080 });
