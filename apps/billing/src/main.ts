import '@unigate/platform/telemetry-register';
import { runService } from '@unigate/platform/distributed';
import { BillingAppModule } from './billing.module';

void runService({ name: 'billing', module: BillingAppModule, grpc: true, defaultHttpPort: 8081, defaultGrpcPort: 50051 });
