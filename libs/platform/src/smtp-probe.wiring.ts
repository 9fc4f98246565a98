import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { smtpProbeOf, type SmtpEvents, type SmtpProbeHandle } from '@verity/integrations';
import type { VerityMetrics } from '@verity/observability';
import { ENGINES, type Engines } from './engines.tokens';
import { HealthRegistry } from './health/health.registry';
import { METRICS } from './tokens';

/** The /readyz check of outbound SMTP (shown, never deciding readiness). */
export const SMTP_OUTBOUND_CHECK = 'smtp_outbound';

/** The probe's events as metrics (docs/operations.md, "Metrics"). */
export function smtpMetricEvents(metrics: VerityMetrics): SmtpEvents {
  return {
    onSession: (outcome) => metrics.smtpSessions.inc({ outcome }),
    onRcpt: (kind) => metrics.smtpRcpts.inc({ kind }),
    onAnswer: (verdict, reason, source) => metrics.smtpAnswers.inc({ verdict, reason, source }),
    onRefusal: (stage) => metrics.smtpRefusals.inc({ stage }),
    onHostWait: (seconds) => metrics.smtpHostWait.observe(seconds),
  };
}

/**
 * Wires the SMTP probe, when EMAIL_SMTP_PROBE is not off, to the process: its metrics, the
 * `smtp_outbound` readiness check (a warning when every connection to a mail host times out:
 * port 25 looks blocked), and the start-time check (one connection to
 * EMAIL_SMTP_CANARY_DOMAIN's mail host, in the background; its result is logged).
 */
@Injectable()
export class SmtpProbeWiring implements OnApplicationBootstrap {
  private readonly log = new Logger('SmtpProbe');

  constructor(
    @Inject(ENGINES) private readonly engines: Engines,
    @Optional() @Inject(HealthRegistry) private readonly health: HealthRegistry | null = null,
    @Optional() @Inject(METRICS) private readonly metrics: VerityMetrics | null = null,
  ) {}

  onApplicationBootstrap(): void {
    const probe = smtpProbeOf(this.engines.email);
    if (probe === undefined) return;
    if (this.metrics) probe.verifier.observe(smtpMetricEvents(this.metrics));
    this.health?.register(SMTP_OUTBOUND_CHECK, () => Promise.resolve(outboundReadiness(probe)));
    this.health?.reportOnly([SMTP_OUTBOUND_CHECK]);
    probe
      .checkOutbound()
      .then((check) =>
        check.state === 'blocked' ? this.log.warn(check.message) : this.log.log(check.message),
      )
      .catch((error: unknown) => this.log.warn(`SMTP outbound check failed: ${String(error)}`));
  }
}

function outboundReadiness(probe: SmtpProbeHandle): { ok: boolean; detail: unknown } {
  const status = probe.verifier.watch.status();
  return {
    ok: status.state !== 'blocked',
    detail: {
      state: status.state,
      consecutive_timeouts: status.consecutiveTimeouts,
      last_connected_at: status.lastConnectedAt,
      ...(status.warning && { warning: status.warning }),
    },
  };
}
