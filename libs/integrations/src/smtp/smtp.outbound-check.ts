import type { MxResolver } from '@verity/validation';
import type { HostAddressResolver } from '../dns/dns.mx-resolver';
import type { MailHostLimiter } from './limiter/mail-host-limiter.port';
import { allowedMailHostAddress } from './smtp.address-guard';
import { SmtpConnectError, type SmtpDialer } from './smtp.dialer';
import type { OutboundSmtpWatch } from './smtp.outbound-watch';
import { isOk } from './smtp.reply';
import { SmtpSession } from './smtp.session';

/** What the start-time check found. */
export interface OutboundCheck {
  /** `open`: a mail host greeted us; `blocked`: the connection timed out; `unknown`: no test. */
  state: 'open' | 'blocked' | 'unknown';
  /** One line for the log and the start-up banner. */
  message: string;
}

/** What the check needs: DNS, how to dial, and the watch it reports to. */
export interface OutboundCheckDeps {
  resolver: MxResolver & HostAddressResolver;
  dial: SmtpDialer;
  port: number;
  timeoutMs: number;
  allowPrivate: boolean;
  watch: OutboundSmtpWatch;
  /** The check's one session counts against the host's caps like any other. */
  limiter: MailHostLimiter;
}

/**
 * One connection to `domain`'s first mail host (greeting read, QUIT, nothing else): whether
 * outbound SMTP works from here. A timeout is what a blocked port 25 looks like; its result
 * stands in /readyz (OutboundSmtpWatch) until a later connection succeeds.
 */
export async function checkOutboundSmtp(
  domain: string,
  deps: OutboundCheckDeps,
): Promise<OutboundCheck> {
  if (domain === '') return { state: 'unknown', message: 'SMTP outbound check off' };
  const lookup = await deps.resolver.lookupMx(domain);
  const host = lookup.kind === 'mx' || lookup.kind === 'implicit' ? lookup.hosts[0] : undefined;
  if (host === undefined) {
    return { state: 'unknown', message: `SMTP outbound check: no mail host found for ${domain}` };
  }
  const ips = (await deps.resolver.resolveAddresses(host.exchange)).filter((ip) =>
    allowedMailHostAddress(ip, deps.allowPrivate),
  );
  if (ips.length === 0) {
    return {
      state: 'unknown',
      message: `SMTP outbound check: no usable address for ${host.exchange}`,
    };
  }
  const target = `${host.exchange} (${ips[0]}) port ${deps.port}`;
  const permit = await deps.limiter.acquire(host.exchange);
  if (!permit.granted) {
    return { state: 'unknown', message: `SMTP outbound check: ${host.exchange} is busy now` };
  }
  try {
    const session = await SmtpSession.open(deps.dial, ips[0], deps.port, deps.timeoutMs);
    deps.watch.recordCanary(ips[0], 'connected');
    const greeting = await session.read().catch(() => null);
    await session.quit();
    const said =
      greeting === null ? 'no greeting' : isOk(greeting) ? 'greeted' : `${greeting.code}`;
    return { state: 'open', message: `SMTP outbound open: ${target} answered (${said})` };
  } catch (error) {
    const timedOut = error instanceof SmtpConnectError && error.kind === 'timeout';
    deps.watch.recordCanary(ips[0], timedOut ? 'timeout' : 'refused');
    if (!timedOut) {
      const reason = error instanceof Error ? error.message : String(error);
      return { state: 'unknown', message: `SMTP outbound check: ${target} refused (${reason})` };
    }
    return {
      state: 'blocked',
      message: `SMTP outbound looks blocked: connecting to ${target} timed out after ${deps.timeoutMs} ms; every mailbox will be answered unknown (set EMAIL_SMTP_PROXY, or EMAIL_SMTP_PROBE=off)`,
    };
  } finally {
    await deps.limiter.release(host.exchange, permit.token).catch(() => undefined);
  }
}
