import { Module, type DynamicModule } from '@nestjs/common';
import type { BillingPort, CatalogPort } from '@unigate/contracts';
import { AdminController } from './admin/admin.controller';
import { AdminGuard } from './auth/admin.guard';
import { AnthropicKeyGuard, ApiKeyGuard } from './auth/api-key.guard';
import { Authenticator } from './auth/authenticator';
import { DashboardBillingController } from './billing/dashboard-billing.controller';
import type { EdgeOptions } from './edge-options';
import { ModelsController } from './models/models.controller';
import { BILLING_PORT, CATALOG_PORT, EDGE_OPTIONS } from './tokens';

/**
 * The edge's routes that are not metered endpoints (those run on the pipeline, registered on Fastify
 * directly): the admin API, the model list and the quota endpoints. It holds no business state.
 */
@Module({})
export class EdgeModule {
  static register(deps: { billing: BillingPort; catalog: CatalogPort; auth: Authenticator; options: EdgeOptions }): DynamicModule {
    return {
      module: EdgeModule,
      controllers: [ModelsController, DashboardBillingController, AdminController],
      providers: [
        { provide: BILLING_PORT, useValue: deps.billing },
        { provide: CATALOG_PORT, useValue: deps.catalog },
        { provide: EDGE_OPTIONS, useValue: deps.options },
        { provide: Authenticator, useValue: deps.auth },
        AdminGuard,
        ApiKeyGuard,
        AnthropicKeyGuard,
      ],
    };
  }
}
