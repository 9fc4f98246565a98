import { Controller, Get, Header, Inject, Res, type OnModuleInit } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import type { VerityMetrics } from '@verity/observability';
import { METRICS } from '../tokens';
import { DATABASE_CHECK, HealthRegistry } from './health.registry';

/** Liveness, readiness and the Prometheus scrape endpoint; no API key (serve them on a private network). */
@ApiExcludeController()
@Controller()
export class HealthController implements OnModuleInit {
  constructor(
    private readonly health: HealthRegistry,
    private readonly db: DataSource,
    @Inject(METRICS) private readonly metrics: VerityMetrics | null,
  ) {}

  onModuleInit(): void {
    this.health.register(DATABASE_CHECK, async () => {
      await this.db.query('SELECT 1');
      return { ok: true };
    });
    // The same checks as /readyz, per check at scrape time: alerts name the failing dependency.
    this.metrics?.setReadinessSource(async () =>
      Object.entries((await this.health.run()).checks).map(([check, r]) => ({ check, ok: r.ok })),
    );
  }

  @Get('healthz')
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  async readyz(@Res() reply: FastifyReply): Promise<void> {
    const report = await this.health.run();
    if (report.status === 'ready') await reply.send(report);
    else {
      const failing = Object.keys(report.checks).filter((name) => !report.checks[name].ok);
      const error = { code: 'service_unavailable', message: `not ready: ${failing.join(', ')}` };
      await reply.status(503).send({ error, ...report });
    }
  }

  @Get('metrics')
  @Header('Cache-Control', 'no-store')
  async scrape(@Res() reply: FastifyReply): Promise<void> {
    if (!this.metrics) {
      await reply.status(404).send({
        error: { code: 'not_found', message: 'metrics are disabled (METRICS_ENABLED=false)' },
      });
      return;
    }
    await reply.type(this.metrics.registry.contentType).send(await this.metrics.registry.metrics());
  }
}
