import type { Socket } from 'node:net';
import type { SmtpDialer } from './smtp.dialer';
import type { SmtpReply } from './smtp.reply';

/** The server did not answer in time, or the connection broke. */
export class SmtpSessionError extends Error {
  override readonly name = 'SmtpSessionError';
  constructor(
    message: string,
    /** `timeout`: no reply within the step's wait; `broken`: closed, reset or garbled. */
    readonly kind: 'timeout' | 'broken',
  ) {
    super(message);
  }
}

const MAX_REPLY_BYTES = 64 * 1024;

/**
 * A line-oriented SMTP client connection: every read waits at most `timeoutMs`. It only
 * speaks commands; it has no DATA support on purpose (a probe never sends a message).
 */
export class SmtpSession {
  private buffer = '';
  private lines: string[] = [];
  private waiter: (() => void) | null = null;
  private failure: SmtpSessionError | null = null;

  private constructor(
    private readonly socket: Socket,
    private readonly timeoutMs: number,
  ) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      if (this.buffer.length > MAX_REPLY_BYTES) this.fail('reply too long', 'broken');
      let eol: number;
      while ((eol = this.buffer.indexOf('\n')) >= 0) {
        this.lines.push(this.buffer.slice(0, eol).replace(/\r$/, ''));
        this.buffer = this.buffer.slice(eol + 1);
      }
      this.wake();
    });
    socket.on('error', (err) => this.fail(err.message, 'broken'));
    socket.on('close', () => this.fail('connection closed', 'broken'));
  }

  /** Connects to ip:port with `dial`; rejects with an SmtpConnectError. */
  static async open(
    dial: SmtpDialer,
    ip: string,
    port: number,
    timeoutMs: number,
  ): Promise<SmtpSession> {
    return new SmtpSession(await dial(ip, port, timeoutMs), timeoutMs);
  }

  /** Reads one (possibly multi-line) reply. */
  async read(): Promise<SmtpReply> {
    const text: string[] = [];
    for (;;) {
      const line = await this.nextLine();
      const code = Number(line.slice(0, 3));
      if (!/^\d{3}$/.test(line.slice(0, 3))) throw this.fail('malformed reply', 'broken');
      text.push(line.slice(4));
      // "250-..." continues, "250 ..." (or a bare "250") ends the reply.
      if (line.charAt(3) !== '-') return { code, text: text.join('\n') };
    }
  }

  /** Sends one command line and reads its reply. */
  async command(line: string): Promise<SmtpReply> {
    if (/[\r\n]/.test(line)) throw new SmtpSessionError('command contains a line break', 'broken');
    this.socket.write(`${line}\r\n`);
    return this.read();
  }

  /** Says QUIT without waiting long for the goodbye, then closes. */
  async quit(): Promise<void> {
    if (this.failure === null) {
      this.socket.write('QUIT\r\n');
      await this.read().catch(() => undefined);
    }
    this.close();
  }

  close(): void {
    this.socket.destroy();
  }

  private async nextLine(): Promise<string> {
    while (this.lines.length === 0) {
      if (this.failure !== null) throw this.failure;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.fail('reply timed out', 'timeout');
          resolve();
        }, this.timeoutMs);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return this.lines.shift()!;
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }

  private fail(message: string, kind: SmtpSessionError['kind']): SmtpSessionError {
    this.failure ??= new SmtpSessionError(message, kind);
    this.socket.destroy();
    this.wake();
    return this.failure;
  }
}
