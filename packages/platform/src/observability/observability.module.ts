import { Global, Module, type DynamicModule } from '@nestjs/common';
import { BearerSecret } from '../auth/bearer-secret';
import { HealthController, METRICS_SECRET } from './health.controller';
import { Readiness } from './readiness';

/** Health and metrics endpoints plus the Readiness registry other modules add their checks to. */
@Global()
@Module({ controllers: [HealthController], providers: [Readiness], exports: [Readiness] })
export class ObservabilityModule {
  /**
   * The same, with /metrics behind a bearer token when `token` is set (the edge's port is public:
   * its metrics are for the operator's scraper only). Without a token /metrics is open.
   */
  static withMetricsToken(token: string | undefined): DynamicModule {
    return { module: ObservabilityModule, providers: [{ provide: METRICS_SECRET, useValue: new BearerSecret(token) }] };
  }
}
