import type { SmtpReason } from '@verity/validation';
import { SmtpConnectError, type SmtpDialer } from './smtp.dialer';
import { enhancedStatus, isOk, type SmtpReply } from './smtp.reply';
import { SmtpSession, SmtpSessionError } from './smtp.session';

/** How to reach and greet mail hosts (EMAIL_SMTP_* settings). */
export interface ConversationSettings {
  port: number;
  timeoutMs: number;
  helo: string;
  /** Reverse-path; '' sends the null reverse-path "<>". */
  mailFrom: string;
  dial: SmtpDialer;
}

/** Why a session could not reach RCPT TO. */
export interface OpenFailure {
  reason: Extract<
    SmtpReason,
    'connection_limit' | 'timeout' | 'unreachable' | 'protocol_error' | 'policy_refusal'
  >;
  code: number | null;
  enhanced: string | null;
  /** The TCP connect itself timed out (what a blocked port 25 looks like). */
  connectTimedOut: boolean;
  /** The connection was made (the port is open, whatever came next). */
  connected: boolean;
}

/** A session that reached RCPT TO, or why not. */
export type Opened =
  { ok: true; conversation: SmtpConversation } | { ok: false; failure: OpenFailure };

/** A reply that refuses the session: 421 or any 4xx is "not now", 5xx is refusal. */
function refusal(reply: SmtpReply, connected = true): OpenFailure {
  const temporary = reply.code >= 400 && reply.code < 500;
  return {
    reason: temporary
      ? 'connection_limit'
      : reply.code >= 500
        ? 'policy_refusal'
        : 'protocol_error',
    code: reply.code,
    enhanced: enhancedStatus(reply),
    connectTimedOut: false,
    connected,
  };
}

/** A timeout or broken connection while talking. */
function broken(error: unknown): OpenFailure {
  const timeout = error instanceof SmtpSessionError && error.kind === 'timeout';
  return {
    reason: timeout ? 'timeout' : 'unreachable',
    code: null,
    enhanced: null,
    connectTimedOut: false,
    connected: true,
  };
}

/**
 * One SMTP session up to and through RCPT TO (RFC 5321 §3.3): greeting, EHLO (HELO fallback),
 * MAIL FROM, then as many RCPT TO as the caller sends, RSET to start a new transaction, QUIT.
 * DATA is never sent.
 */
export class SmtpConversation {
  /** RCPT commands sent in the current transaction (since MAIL FROM). */
  rcptsInTransaction = 0;

  private constructor(
    private readonly session: SmtpSession,
    private readonly mailCommand: string,
    /** The server offers SMTPUTF8 (RFC 6531): UTF-8 mailboxes may be asked about. */
    readonly smtputf8: boolean,
  ) {}

  /** Connects to `ip` and reaches the point where RCPT TO may be sent. */
  static async open(ip: string, settings: ConversationSettings): Promise<Opened> {
    let session: SmtpSession;
    try {
      session = await SmtpSession.open(settings.dial, ip, settings.port, settings.timeoutMs);
    } catch (error) {
      const timedOut = error instanceof SmtpConnectError && error.kind === 'timeout';
      return {
        ok: false,
        failure: {
          reason: timedOut ? 'timeout' : 'unreachable',
          code: null,
          enhanced: null,
          connectTimedOut: timedOut,
          connected: false,
        },
      };
    }
    try {
      const greeting = await session.read();
      if (!isOk(greeting)) return SmtpConversation.fail(session, refusal(greeting));
      let hello = await session.command(`EHLO ${settings.helo}`);
      if (hello.code >= 500) hello = await session.command(`HELO ${settings.helo}`);
      if (!isOk(hello)) return SmtpConversation.fail(session, refusal(hello));
      const smtputf8 = /^SMTPUTF8\b/im.test(hello.text);
      const mail = `MAIL FROM:<${settings.mailFrom}>${smtputf8 ? ' SMTPUTF8' : ''}`;
      const from = await session.command(mail);
      if (!isOk(from)) return SmtpConversation.fail(session, refusal(from));
      return { ok: true, conversation: new SmtpConversation(session, mail, smtputf8) };
    } catch (error) {
      session.close();
      return { ok: false, failure: broken(error) };
    }
  }

  private static async fail(session: SmtpSession, failure: OpenFailure): Promise<Opened> {
    await session.quit();
    return { ok: false, failure };
  }

  /** RCPT TO; rejects with an SmtpSessionError when the server times out or hangs up. */
  async rcpt(address: string): Promise<SmtpReply> {
    this.rcptsInTransaction++;
    return this.session.command(`RCPT TO:<${address}>`);
  }

  /** RSET and MAIL FROM again: a new transaction in the same session; false if refused. */
  async reset(): Promise<boolean> {
    this.rcptsInTransaction = 0;
    if (!isOk(await this.session.command('RSET'))) return false;
    return isOk(await this.session.command(this.mailCommand));
  }

  /** QUIT, without waiting long for the goodbye. */
  close(): Promise<void> {
    return this.session.quit();
  }
}
