import { Global, Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { Readiness } from './readiness';

/** Health and metrics endpoints plus the Readiness registry other modules add their checks to. */
@Global()
@Module({ controllers: [HealthController], providers: [Readiness], exports: [Readiness] })
export class ObservabilityModule {}
