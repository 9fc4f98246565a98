import { setTimeout as sleep } from 'node:timers/promises';
import { cappedBackoffMs } from '@verity/common';
import type { SmtpReason, SmtpVerdict } from '@verity/validation';
import type { MailHostLimiter } from './limiter/mail-host-limiter.port';
import { SmtpConversation, type ConversationSettings, type OpenFailure } from './smtp.conversation';
import type { SmtpEvents } from './smtp.events';
import type { HostMemory } from './smtp.host-memory';
import type { OutboundSmtpWatch } from './smtp.outbound-watch';
import { classifyRcpt, tooManyRecipients, type SmtpReply } from './smtp.reply';
import { SmtpSessionError } from './smtp.session';
import { SessionSlots, SlotTimeout } from './smtp.slots';

/** One recipient to ask about: an address of the chunk, or a domain's random catch-all check. */
export interface RunItem {
  kind: 'address' | 'catch_all';
  address: string;
  domain: string;
  /** The address needs SMTPUTF8 (RFC 6531). */
  utf8: boolean;
  /** Sessions that ended before this item was answered. */
  attempts: number;
}

/** The answer for one item. */
export interface ItemAnswer {
  verdict: SmtpVerdict;
  reason: SmtpReason;
  code: number | null;
  enhanced: string | null;
  retryable: boolean;
  host: string;
  durationMs: number;
}

/** What a host run shares with the other runs of its probe. */
export interface HostRunContext {
  conversation: ConversationSettings;
  limiter: MailHostLimiter;
  /** Sessions this process has open at once, all hosts together. */
  slots: SessionSlots;
  memory: HostMemory;
  watch: OutboundSmtpWatch;
  events: SmtpEvents;
  /** `call`: waits at most one SMTP timeout for any slot; `batch`: waits its turn. */
  mode: 'call' | 'batch';
  signal?: AbortSignal;
  /** Backoff after a host's first refusal; doubles per refusal in a row (cap 5 min). */
  refusalBackoffMs: number;
  /** Sessions a run opens at once towards its host (the host's cap). */
  maxConcurrent: number;
}

/**
 * Refusals (421 at connect or greeting) one batch run waits out before its rows go to the retry
 * window: with the default 10 s backoff, doubling, about five minutes of backing off.
 */
const REFUSALS_PER_RUN = 5;
/** Sessions broken mid-way an item survives before it is answered with the failure. */
const ATTEMPTS_PER_ITEM = 3;
const REFUSAL_BACKOFF_CAP_MS = 5 * 60_000;

/**
 * The recipients of one mail host in one probe: sessions opened within the host's cap (the
 * limiter, shared by every process), each carrying up to the host's recipient limit, a new
 * transaction (RSET) or session where a 452 says so; refusals back the host off, silence ends
 * the run. Every item is answered through `settle`.
 */
export class HostRun {
  private readonly queue: RunItem[];
  private readonly answered = new WeakSet<RunItem>();
  private refusals = 0;

  constructor(
    /** The MX host name: the limiter's key. */
    private readonly host: string,
    /** Its addresses, allowed by the guard, in the order to try. */
    private readonly ips: readonly string[],
    items: readonly RunItem[],
    private readonly ctx: HostRunContext,
    private readonly settle: (item: RunItem, answer: ItemAnswer) => void,
  ) {
    this.queue = [...items];
  }

  async run(): Promise<void> {
    const silent = this.ctx.memory.silence(this.host);
    if (silent !== undefined) return this.answerAll(silent.reason, null, null, 0);
    if (this.ips.length === 0) return this.answerAll('unreachable', null, null, 0);
    const limit = this.ctx.memory.sessionLimit(this.host);
    const workers = Math.min(this.ctx.maxConcurrent, Math.ceil(this.queue.length / limit));
    await Promise.all(Array.from({ length: Math.max(1, workers) }, () => this.worker()));
  }

  private async worker(): Promise<void> {
    while (this.queue.length > 0) {
      const permit = await this.permit();
      if (permit === null) return this.answerAll('connection_limit', null, null, 0, true);
      let release: (() => void) | undefined;
      try {
        release = await this.ctx.slots.acquire(this.ctx.signal, this.callWait());
        const batch = this.queue.splice(0, this.ctx.memory.sessionLimit(this.host));
        if (batch.length > 0) await this.session(batch);
      } catch (error) {
        if (!(error instanceof SlotTimeout)) throw error;
        return this.answerAll('connection_limit', null, null, 0, true);
      } finally {
        release?.();
        await this.ctx.limiter.release(this.host, permit).catch(() => undefined);
      }
    }
  }

  /** A call waits at most one SMTP timeout for anything; a batch waits its turn. */
  private callWait(): number | undefined {
    return this.ctx.mode === 'call' ? this.ctx.conversation.timeoutMs : undefined;
  }

  /** A session slot from the limiter, waiting as it says; null when a call cannot wait longer. */
  private async permit(): Promise<string | null> {
    const started = performance.now();
    const deadline = this.callWait();
    for (;;) {
      this.ctx.signal?.throwIfAborted();
      const permit = await this.ctx.limiter.acquire(this.host);
      const waited = performance.now() - started;
      if (permit.granted) {
        this.ctx.events.onHostWait?.(waited / 1000);
        return permit.token;
      }
      if (deadline !== undefined && waited + permit.retryInMs > deadline) return null;
      await sleep(permit.retryInMs, undefined, { signal: this.ctx.signal });
    }
  }

  /** One session: open, then RCPT each item; what it could not answer goes back to the queue. */
  private async session(batch: RunItem[]): Promise<void> {
    const started = performance.now();
    const opened = await this.open();
    if (!opened.ok) return this.failed(batch, opened.failure, started);
    this.ctx.memory.served(this.host);
    const conversation = opened.conversation;
    const txnLimit = this.ctx.memory.transactionLimit(this.host);
    let sent = 0;
    try {
      for (let i = 0; i < batch.length; i++) {
        const item = batch[i];
        if (item.utf8 && !conversation.smtputf8) {
          this.answer(item, 'unknown', 'smtputf8_unsupported', null, null, false, started);
          continue;
        }
        if (conversation.rcptsInTransaction >= txnLimit && !(await conversation.reset())) {
          return this.requeue(batch.slice(i));
        }
        let reply = await this.rcpt(conversation, item);
        if (this.atLimit(conversation, reply)) {
          // RFC 5321 §4.5.3.1.10: a 452 after recipients were accepted is a limit, per
          // transaction or per session. A new transaction tells which.
          const inTransaction = conversation.rcptsInTransaction - 1;
          if (!(await conversation.reset())) return this.requeue(batch.slice(i));
          reply = await this.rcpt(conversation, item);
          if (this.atLimit(conversation, reply) || reply.code === 452) {
            this.ctx.memory.learnSessionLimit(this.host, sent);
            return this.requeue(batch.slice(i));
          }
          this.ctx.memory.learnTransactionLimit(this.host, inTransaction);
        }
        if (reply.code === 421) {
          // The server is closing the session: the rest waits for another one.
          await this.refused('rcpt');
          return this.requeue(batch.slice(i));
        }
        sent++;
        const rcpt = classifyRcpt(reply, item.address);
        this.answer(
          item,
          rcpt.verdict,
          rcpt.reason,
          rcpt.code,
          rcpt.enhanced,
          rcpt.retryable,
          started,
        );
      }
      this.ctx.events.onSession?.('served');
    } catch (error) {
      this.ctx.events.onSession?.('failed');
      this.brokeOff(
        batch.filter((item) => !this.answered.has(item)),
        error,
        started,
      );
    } finally {
      await conversation.close();
    }
  }

  private rcpt(conversation: SmtpConversation, item: RunItem): Promise<SmtpReply> {
    this.ctx.events.onRcpt?.(item.kind);
    return conversation.rcpt(item.address);
  }

  /** A 452 (or 4.5.3) after other recipients in the transaction: a recipient limit. */
  private atLimit(conversation: SmtpConversation, reply: SmtpReply): boolean {
    if (conversation.rcptsInTransaction <= 1) return false;
    return reply.code === 452 || tooManyRecipients(reply);
  }

  /** Opens a session to the host's first address that answers at all. */
  private async open(): ReturnType<typeof SmtpConversation.open> {
    let opened: Awaited<ReturnType<typeof SmtpConversation.open>> | undefined;
    for (const ip of this.ips) {
      opened = await SmtpConversation.open(ip, this.ctx.conversation);
      if (opened.ok || opened.failure.connected) {
        this.ctx.watch.record(ip, 'connected');
        return opened;
      }
      this.ctx.watch.record(ip, opened.failure.connectTimedOut ? 'timeout' : 'refused');
    }
    return opened!;
  }

  /** The session ended before RCPT: back off, end the run, or answer the batch. */
  private async failed(batch: RunItem[], failure: OpenFailure, started: number): Promise<void> {
    if (failure.reason === 'connection_limit') {
      this.ctx.events.onSession?.('refused');
      await this.refused('session');
      if (this.ctx.mode === 'batch' && this.refusals < REFUSALS_PER_RUN) return this.requeue(batch);
      return this.answerBatch(batch, 'connection_limit', failure, started, true);
    }
    if (!failure.connected || failure.reason === 'timeout') {
      // Nobody home (or a tarpit): no session to this host will do better for a while.
      this.ctx.events.onSession?.(failure.connected ? 'failed' : 'unreachable');
      const reason = failure.reason === 'timeout' ? 'timeout' : 'unreachable';
      this.ctx.memory.markSilent(this.host, { reason });
      this.answerBatch(batch, reason, failure, started, false);
      return this.answerAll(reason, null, null, started);
    }
    // Refused for good (5xx greeting, EHLO or MAIL FROM): every session would be.
    this.ctx.events.onSession?.('refused');
    this.answerBatch(batch, failure.reason, failure, started, false);
    this.answerAll(failure.reason, failure.code, failure.enhanced, started);
  }

  private async refused(stage: 'session' | 'rcpt'): Promise<void> {
    this.refusals++;
    this.ctx.events.onRefusal?.(stage);
    const streak = this.ctx.memory.refused(this.host);
    const backoff = cappedBackoffMs(streak, this.ctx.refusalBackoffMs, REFUSAL_BACKOFF_CAP_MS);
    await this.ctx.limiter.refused(this.host, backoff).catch(() => undefined);
  }

  /**
   * A session that timed out after RCPT began (a server that stalls replies is a tarpit: the
   * host is left alone for a while) or hung up (its items try another session, a few times).
   */
  private brokeOff(items: RunItem[], error: unknown, started: number): void {
    if (error instanceof SmtpSessionError && error.kind === 'timeout') {
      this.ctx.memory.markSilent(this.host, { reason: 'timeout' });
      for (const item of items) this.answer(item, 'unknown', 'timeout', null, null, false, started);
      return this.answerAll('timeout', null, null, started);
    }
    for (const item of items) {
      item.attempts++;
      if (item.attempts < ATTEMPTS_PER_ITEM) this.queue.push(item);
      else this.answer(item, 'unknown', 'unreachable', null, null, false, started);
    }
  }

  private requeue(items: RunItem[]): void {
    this.queue.unshift(...items);
  }

  private answerBatch(
    batch: RunItem[],
    reason: SmtpReason,
    failure: OpenFailure,
    started: number,
    retryable: boolean,
  ): void {
    for (const item of batch) {
      this.answer(item, 'unknown', reason, failure.code, failure.enhanced, retryable, started);
    }
  }

  /** Answers every item still queued (the host cannot be asked in this probe). */
  private answerAll(
    reason: SmtpReason,
    code: number | null,
    enhanced: string | null,
    started: number,
    retryable = false,
  ): void {
    for (const item of this.queue.splice(0)) {
      this.answer(item, 'unknown', reason, code, enhanced, retryable, started);
    }
  }

  private answer(
    item: RunItem,
    verdict: SmtpVerdict,
    reason: SmtpReason,
    code: number | null,
    enhanced: string | null,
    retryable: boolean,
    started: number,
  ): void {
    this.answered.add(item);
    const durationMs = started === 0 ? 0 : performance.now() - started;
    this.settle(item, { verdict, reason, code, enhanced, retryable, host: this.host, durationMs });
  }
}
