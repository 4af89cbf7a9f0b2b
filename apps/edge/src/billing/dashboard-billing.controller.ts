import { Controller, Get, Inject, Query, Req, UseGuards } from '@nestjs/common';
import type { BillingPort } from '@unigate/contracts';
import type { FastifyRequest } from 'fastify';
import { ApiKeyGuard, principalOf } from '../auth/api-key.guard';
import { BILLING_PORT } from '../tokens';
import { parseRange, subscriptionBody, usageBody } from './dashboard-billing';

/** Quota lookup for the calling key's account, at both the /v1 and the bare paths clients use. */
@Controller()
@UseGuards(ApiKeyGuard)
export class DashboardBillingController {
  constructor(@Inject(BILLING_PORT) private readonly billing: BillingPort) {}

  @Get(['v1/dashboard/billing/subscription', 'dashboard/billing/subscription'])
  async subscription(@Req() request: FastifyRequest) {
    return subscriptionBody(await this.billing.quota(principalOf(request).account_id));
  }

  @Get(['v1/dashboard/billing/usage', 'dashboard/billing/usage'])
  async usage(@Req() request: FastifyRequest, @Query() query: Record<string, unknown>) {
    return usageBody(await this.billing.quota(principalOf(request).account_id, parseRange(query)));
  }
}
