import { Controller, Get, HttpCode, Inject, Optional, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BearerSecret } from '../auth/bearer-secret';
import { metricsRegistry } from './metrics';
import { Readiness } from './readiness';

/** Provider of the BearerSecret that guards /metrics (ObservabilityModule.withMetricsToken). */
export const METRICS_SECRET = Symbol('METRICS_SECRET');

/** /health/live, /health/ready and /metrics — the same on every app. */
@Controller()
export class HealthController {
  constructor(
    private readonly readiness: Readiness,
    @Optional() @Inject(METRICS_SECRET) private readonly metricsSecret?: BearerSecret,
  ) {}

  @Get('health/live')
  @HttpCode(200)
  live() {
    return { status: 'ok' };
  }

  @Get('health/ready')
  async ready(@Res() reply: FastifyReply) {
    const report = await this.readiness.report();
    await reply.status(report.ok ? 200 : 503).send({ status: report.ok ? 'ok' : 'unavailable', checks: report.checks });
  }

  @Get('metrics')
  async metrics(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (this.metricsSecret?.configured && !this.metricsSecret.matches(request.headers.authorization)) {
      await reply
        .status(401)
        .header('www-authenticate', 'Bearer')
        .send({
          error: { message: 'Metrics need Authorization: Bearer <metrics token>.', type: 'invalid_request_error', code: 'unauthorized' },
        });
      return;
    }
    await reply.header('content-type', metricsRegistry.contentType).send(await metricsRegistry.metrics());
  }
}
