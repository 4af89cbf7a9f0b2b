import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Res, UseGuards } from '@nestjs/common';
import {
  createAccountSchema,
  createKeySchema,
  creditAccountSchema,
  errors,
  GatewayError,
  parseOrThrow,
  updateAccountSchema,
  updateKeySchema,
  usagePageQuerySchema,
  usdToMicros,
  type BillingPort,
  type CatalogPort,
} from '@unigate/contracts';
import type { FastifyReply } from 'fastify';
import { AdminGuard } from '../auth/admin.guard';
import { BILLING_PORT, CATALOG_PORT } from '../tokens';

/** The operator API of DESIGN.md §6. Thin: validation here, everything else in billing. */
@Controller('admin/v1')
@UseGuards(AdminGuard)
export class AdminController {
  constructor(
    @Inject(BILLING_PORT) private readonly billing: BillingPort,
    @Inject(CATALOG_PORT) private readonly catalog: CatalogPort,
  ) {}

  @Post('accounts')
  @HttpCode(201)
  createAccount(@Body() body: unknown) {
    const req = parseOrThrow(createAccountSchema, body ?? {});
    return this.billing.createAccount(req.name, usdToMicros(req.credit_usd ?? 0), req.tier);
  }

  @Get('accounts/:id')
  getAccount(@Param('id') id: string) {
    return this.billing.getAccount(id);
  }

  @Patch('accounts/:id')
  updateAccount(@Param('id') id: string, @Body() body: unknown) {
    return this.billing.setTier(id, parseOrThrow(updateAccountSchema, body ?? {}).tier);
  }

  @Post('accounts/:id/credit')
  @HttpCode(200)
  credit(@Param('id') id: string, @Body() body: unknown) {
    const req = parseOrThrow(creditAccountSchema, body ?? {});
    return this.billing.credit(id, usdToMicros(req.amount_usd), req.reference);
  }

  @Post('accounts/:id/keys')
  @HttpCode(201)
  async createKey(@Param('id') id: string, @Body() body: unknown) {
    const spec = parseOrThrow(createKeySchema, body ?? {});
    await this.requireKnownModels(spec.models);
    return this.billing.createKey(id, spec);
  }

  /** Takes effect on every edge replica as revocation does: each drops the key's cached principal. */
  @Patch('keys/:id')
  async updateKey(@Param('id') id: string, @Body() body: unknown) {
    const changes = parseOrThrow(updateKeySchema, body ?? {});
    await this.requireKnownModels(changes.models);
    return this.billing.updateKey(id, changes);
  }

  @Delete('keys/:id')
  @HttpCode(204)
  async revokeKey(@Param('id') id: string): Promise<void> {
    await this.billing.revokeKey(id);
  }

  /**
   * The body stays DESIGN.md §6's array of entries, newest first; a page with older entries after it
   * says where they are in a `Link: <…>; rel="next"` header (RFC 8288, as GitHub's API pages).
   */
  @Get('accounts/:id/usage')
  async listUsage(@Param('id') id: string, @Query() query: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const page = parseOrThrow(usagePageQuerySchema, query ?? {});
    const { entries, has_more } = await this.billing.listUsage(id, page);
    const last = entries.at(-1);
    if (has_more && last) {
      const next = new URLSearchParams({ limit: String(page.limit), after: last.id });
      void reply.header('link', `</admin/v1/accounts/${encodeURIComponent(id)}/usage?${next}>; rel="next"`);
    }
    return entries;
  }

  private async requireKnownModels(models: string[] | null | undefined): Promise<void> {
    await Promise.all((models ?? []).map((model, i) => this.requireKnown(model, `models[${i}]`)));
  }

  /** A key limited to a name the catalogue does not know would serve nothing: most likely a typo. */
  private async requireKnown(model: string, param: string): Promise<void> {
    try {
      await this.catalog.resolve(model);
    } catch (err) {
      if (err instanceof GatewayError && err.code === 'model_not_found') {
        throw errors.invalidRequest(`unknown model ${JSON.stringify(model)}: GET /v1/models lists the models served`, param);
      }
      throw err;
    }
  }
}
