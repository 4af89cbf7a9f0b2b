import { Controller, Get, Inject, Query, Req } from '@nestjs/common';
import type { BillingPort } from '@unigate/contracts';
import type { FastifyRequest } from 'fastify';
import { Authenticator } from '../auth/authenticator';
import { BILLING_PORT } from '../tokens';
import { parseRange, subscriptionBody, usageBody } from './dashboard-billing';

/** Quota lookup for the calling key's account, at both the /v1 and the bare paths clients use. */
@Controller()
export class DashboardBillingController {
  constructor(
    private readonly auth: Authenticator,
    @Inject(BILLING_PORT) private readonly billing: BillingPort,
  ) {}

  @Get(['v1/dashboard/billing/subscription', 'dashboard/billing/subscription'])
  async subscription(@Req() request: FastifyRequest) {
    const principal = await this.auth.authenticate(request);
    return subscriptionBody(await this.billing.quota(principal.account_id));
  }

  @Get(['v1/dashboard/billing/usage', 'dashboard/billing/usage'])
  async usage(@Req() request: FastifyRequest, @Query() query: Record<string, unknown>) {
    const range = parseRange(query);
    const principal = await this.auth.authenticate(request);
    return usageBody(await this.billing.quota(principal.account_id, range));
  }
}
