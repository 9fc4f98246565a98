import type { Socket } from 'node:net';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

/**
 * How a loopback mail host answers (docs/models/email.md, "Test world"):
 * - `truthful`: 250 for an existing mailbox, 550 5.1.1 for a missing one, 550 5.2.1 disabled;
 * - `catch_all`: 250 for every recipient;
 * - `greylist`: 451 4.7.1 for a recipient first seen less than `greylistMs` ago, then truthful
 *   (or at once for everyone after {@link MailHost.endGreylisting});
 * - `policy`: 550 5.7.1 for every recipient (a block list);
 * - `tarpit`: the greeting comes `tarpitMs` late;
 * - `limited`: more than `maxConcurrent` sessions at once, or `maxPerWindow` started in
 *   `windowMs`, get 421 4.7.0 at the greeting; truthful otherwise;
 * - `one_rcpt`: 452 4.5.3 to every recipient after the first of a session; truthful otherwise;
 * - `full`: 552 5.2.2 for the mailboxes marked full; truthful otherwise;
 * - `plain`: like truthful, but without enhanced status codes (550 "No such user here").
 */
export type MailBehaviour =
  | 'truthful'
  | 'catch_all'
  | 'greylist'
  | 'policy'
  | 'tarpit'
  | 'limited'
  | 'one_rcpt'
  | 'full'
  | 'plain';

/** One loopback mail host. */
export interface MailHostSpec {
  /** Its MX name. */
  name: string;
  /** A loopback address of its own (127.0.0.2 ...). */
  ip: string;
  behaviour: MailBehaviour;
  greylistMs?: number;
  tarpitMs?: number;
  maxConcurrent?: number;
  maxPerWindow?: number;
  windowMs?: number;
}

/** The mailboxes a host knows, by full address (lower case). */
export interface Mailboxes {
  existing: Set<string>;
  disabled: Set<string>;
  full: Set<string>;
}

/** What a host saw: what politeness is measured by. */
export interface MailHostStats {
  sessions: number;
  peakConcurrent: number;
  /** Most sessions started in any `windowMs` (60 s unless the host sets one). */
  peakPerWindow: number;
  rcpts: number;
  refused421: number;
  /** Every RCPT answered 4xx (greylisting, 452). */
  temporary: number;
}

function reply(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/** A mail host on `spec.ip`:`port` speaking real SMTP (smtp-server), with its behaviour. */
export class MailHost {
  readonly stats: MailHostStats = {
    sessions: 0,
    peakConcurrent: 0,
    peakPerWindow: 0,
    rcpts: 0,
    refused421: 0,
    temporary: 0,
  };
  private concurrent = 0;
  private readonly starts: number[] = [];
  private readonly firstSeen = new Map<string, number>();
  private greylisting = true;
  private readonly rcptsBySession = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly sockets = new Set<Socket>();
  private readonly server: SMTPServer;

  constructor(
    readonly spec: MailHostSpec,
    private readonly mailboxes: Mailboxes,
  ) {
    this.server = new SMTPServer({
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      disableReverseLookup: true,
      hideENHANCEDSTATUSCODES: true,
      onConnect: (session, callback) => this.connect(session, callback),
      onRcptTo: (address, session, callback) => {
        const error = this.rcpt(address.address.toLowerCase(), session);
        callback(error ?? undefined);
      },
      onData: (stream, _session, callback) => {
        stream.resume();
        stream.on('end', () => callback(reply(554, '5.7.0 this world takes no messages')));
      },
      onClose: (session) => this.rcptsBySession.delete(session.id),
    });
    this.server.server.on('connection', (socket: Socket) => this.counted(socket));
  }

  listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      this.server.server.once('error', onError);
      this.server.listen(port, this.spec.ip, () => {
        this.server.server.removeListener('error', onError);
        resolve();
      });
    });
  }

  /** A greylisting host lets every recipient through from now on (a test decides when). */
  endGreylisting(): void {
    this.greylisting = false;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /**
   * Counts every session, refused ones included: the politeness figures. A session ends when
   * the server ends it (after its 221 or 421: smtp-server calls `end`) or the client goes away,
   * whichever comes first, so a socket still tearing down is not counted as open.
   */
  private counted(socket: Socket): void {
    this.sockets.add(socket);
    let open = true;
    const ended = () => {
      if (!open) return;
      open = false;
      this.concurrent--;
    };
    const end = socket.end.bind(socket);
    socket.end = ((...args: Parameters<Socket['end']>) => {
      ended();
      return end(...args);
    }) as Socket['end'];
    socket.once('end', ended);
    this.stats.sessions++;
    this.concurrent++;
    this.stats.peakConcurrent = Math.max(this.stats.peakConcurrent, this.concurrent);
    const now = Date.now();
    const windowMs = this.spec.windowMs ?? 60_000;
    this.starts.push(now);
    while (this.starts.length > 0 && this.starts[0] <= now - windowMs) this.starts.shift();
    this.stats.peakPerWindow = Math.max(this.stats.peakPerWindow, this.starts.length);
    socket.once('close', () => {
      ended();
      this.sockets.delete(socket);
    });
  }

  private connect(_session: SMTPServerSession, callback: (error?: Error) => void): void {
    const { spec } = this;
    if (spec.behaviour === 'limited') {
      const overCap = this.concurrent > (spec.maxConcurrent ?? Infinity);
      const overRate = this.starts.length > (spec.maxPerWindow ?? Infinity);
      if (overCap || overRate) {
        this.stats.refused421++;
        return callback(reply(421, '4.7.0 Too many connections, try again later'));
      }
    }
    if (spec.behaviour === 'tarpit') {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        callback();
      }, spec.tarpitMs ?? 40_000);
      this.timers.add(timer);
      return;
    }
    callback();
  }

  private rcpt(address: string, session: SMTPServerSession): Error | null {
    this.stats.rcpts++;
    const { behaviour } = this.spec;
    const count = (this.rcptsBySession.get(session.id) ?? 0) + 1;
    this.rcptsBySession.set(session.id, count);
    if (behaviour === 'one_rcpt' && count > 1) {
      this.stats.temporary++;
      return reply(452, '4.5.3 Too many recipients');
    }
    if (behaviour === 'catch_all') return null;
    if (behaviour === 'policy') return reply(550, '5.7.1 Client host rejected: listed at a DNSBL');
    if (behaviour === 'greylist' && this.greylisting) {
      const first = this.firstSeen.get(address);
      const now = Date.now();
      if (first === undefined) this.firstSeen.set(address, now);
      if (first === undefined || now - first < (this.spec.greylistMs ?? 30_000)) {
        this.stats.temporary++;
        return reply(451, '4.7.1 Greylisted, please try again later');
      }
    }
    if (this.mailboxes.full.has(address)) return reply(552, '5.2.2 Mailbox full');
    if (this.mailboxes.disabled.has(address)) return reply(550, '5.2.1 Mailbox disabled');
    if (this.mailboxes.existing.has(address)) return null;
    return behaviour === 'plain'
      ? reply(550, 'No such user here')
      : reply(550, '5.1.1 User unknown');
  }
}
