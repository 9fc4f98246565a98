import { connect, type Socket } from 'node:net';

/** One SMTP reply (RFC 5321 §4.2): the code and the text of all its lines. */
export interface SmtpReply {
  code: number;
  text: string;
}

/** The server did not answer in time, or the connection broke. */
export class SmtpSessionError extends Error {
  override readonly name = 'SmtpSessionError';
  constructor(
    message: string,
    readonly phase: 'connect' | 'conversation',
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
      if (this.buffer.length > MAX_REPLY_BYTES) this.fail('reply too long');
      let eol: number;
      while ((eol = this.buffer.indexOf('\n')) >= 0) {
        this.lines.push(this.buffer.slice(0, eol).replace(/\r$/, ''));
        this.buffer = this.buffer.slice(eol + 1);
      }
      this.wake();
    });
    socket.on('error', (err) => this.fail(err.message));
    socket.on('close', () => this.fail('connection closed'));
  }

  /** Connects to ip:port, failing after `timeoutMs`. */
  static open(host: string, port: number, timeoutMs: number): Promise<SmtpSession> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new SmtpSessionError(`connect to ${host}:${port} timed out`, 'connect'));
      }, timeoutMs);
      socket.once('error', (err) => {
        clearTimeout(timer);
        socket.destroy();
        reject(new SmtpSessionError(err.message, 'connect'));
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new SmtpSession(socket, timeoutMs));
      });
    });
  }

  /** Reads one (possibly multi-line) reply. */
  async read(): Promise<SmtpReply> {
    const text: string[] = [];
    for (;;) {
      const line = await this.nextLine();
      const code = Number(line.slice(0, 3));
      if (!/^\d{3}$/.test(line.slice(0, 3))) throw this.fail(`malformed reply "${line}"`);
      text.push(line.slice(4));
      // "250-..." continues, "250 ..." (or a bare "250") ends the reply.
      if (line.charAt(3) !== '-') return { code, text: text.join('\n') };
    }
  }

  /** Sends one command line and reads its reply. */
  async command(line: string): Promise<SmtpReply> {
    if (/[\r\n]/.test(line))
      throw new SmtpSessionError('command contains a line break', 'conversation');
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
          this.fail('reply timed out');
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

  private fail(message: string): SmtpSessionError {
    this.failure ??= new SmtpSessionError(message, 'conversation');
    this.socket.destroy();
    this.wake();
    return this.failure;
  }
}
