import { Controller, Get, Header, HttpCode, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { metricsRegistry } from './metrics';
import { Readiness } from './readiness';

/** /health/live, /health/ready and /metrics — the same on every app. */
@Controller()
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

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
  @Header('content-type', metricsRegistry.contentType)
  metrics() {
    return metricsRegistry.metrics();
  }
}
