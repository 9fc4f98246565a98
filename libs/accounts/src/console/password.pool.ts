import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { VerityError } from '@verity/common';
import type { DeriveReply, DeriveRequest } from './password.worker';

/** What one derivation needs besides its id. */
export type DeriveParams = Omit<DeriveRequest, 'id'>;

/**
 * The queue an attempt waits in: `trusted` for a browser that signed in before (its device
 * cookie, docs/console.md), served before any `untrusted` attempt, so a flood of strangers
 * never stands between the real user and the password check.
 */
export type HashLane = 'trusted' | 'untrusted';

/** Room for one derivation, held from admission until it is derived or released. */
export interface HashTicket {
  derive(params: DeriveParams): Promise<Buffer>;
  /** Gives the room back when the attempt ends without deriving (idempotent). */
  release(): void;
}

function shuttingDown(): VerityError {
  return new VerityError('service_unavailable', 'the server is shutting down; retry');
}

interface Job {
  params: DeriveParams;
  resolve: (key: Buffer) => void;
  reject: (error: Error) => void;
}

interface Running {
  id: number;
  job: Job;
  startedAt: number;
}

/** First guess of one derivation's time (N=2^17 on a laptop core), until one is measured. */
const FIRST_ESTIMATE_MS = 400;

/**
 * Password key derivations (scrypt) on `threads` dedicated worker threads, never on libuv's
 * thread pool (which PostgreSQL's driver, DNS and file I/O share), with at most `queueLimit`
 * waiting per lane: beyond that an attempt is refused at once (429 with Retry-After) instead of
 * queueing for minutes. So a sign-in flood costs at most `threads` cores and a bounded wait,
 * and every other request is served meanwhile.
 */
export class PasswordHashPool {
  private readonly idle: Worker[] = [];
  private readonly running = new Map<Worker, Running>();
  private readonly queues: Record<HashLane, Job[]> = { trusted: [], untrusted: [] };
  private workers = 0;
  private nextId = 0;
  /** Tickets held per lane: derivations admitted and not yet finished. */
  private readonly held: Record<HashLane, number> = { trusted: 0, untrusted: 0 };
  private averageMs = FIRST_ESTIMATE_MS;
  private closed = false;

  constructor(
    private readonly threads: number,
    private readonly queueLimit: number,
    private readonly script = join(__dirname, 'password.worker.js'),
  ) {}

  /**
   * Holds room in `lane` for one derivation: `threads` running and `queueLimit` waiting per
   * lane at most, else throws rate_limited (429, Retry-After) at once. Taken before anything
   * else is done for a sign-in, so a flood refused for want of room costs nothing more, and at
   * most that many attempts are past this point (their database reads included).
   */
  admit(lane: HashLane): HashTicket {
    if (this.closed) throw shuttingDown();
    if (this.held[lane] >= this.threads + this.queueLimit) throw this.busy();
    this.held[lane]++;
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      this.held[lane]--;
    };
    return {
      derive: (params) => {
        if (!held) return Promise.reject(new Error('a hash ticket derives once'));
        return this.run(params, lane).finally(release);
      },
      release,
    };
  }

  /** Derives a key in a worker, in `lane`; throws rate_limited when the lane is full. */
  async derive(params: DeriveParams, lane: HashLane): Promise<Buffer> {
    return this.admit(lane).derive(params);
  }

  private run(params: DeriveParams, lane: HashLane): Promise<Buffer> {
    if (this.closed) return Promise.reject(shuttingDown());
    return new Promise<Buffer>((resolve, reject) => {
      const job = { params, resolve, reject };
      const worker = this.freeWorker();
      if (worker) this.start(worker, job);
      else this.queues[lane].push(job);
    });
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }

  /** Ends the workers; what waits or runs is refused with 503. */
  async close(): Promise<void> {
    this.closed = true;
    const gone = shuttingDown();
    for (const job of [...this.queues.trusted, ...this.queues.untrusted]) job.reject(gone);
    this.queues.trusted = [];
    this.queues.untrusted = [];
    for (const { job } of this.running.values()) job.reject(gone);
    const all = [...this.idle, ...this.running.keys()];
    this.idle.length = 0;
    this.running.clear();
    await Promise.all(all.map((w) => w.terminate()));
  }

  private busy(): VerityError {
    const seconds = Math.max(
      1,
      Math.ceil((this.averageMs * (this.queueLimit / this.threads + 1)) / 1000),
    );
    return new VerityError(
      'rate_limited',
      `too many sign-ins are being checked at once; try again in ${seconds} seconds`,
      { 'Retry-After': String(seconds) },
    );
  }

  private freeWorker(): Worker | undefined {
    const idle = this.idle.pop();
    if (idle) return idle;
    if (this.workers >= this.threads) return undefined;
    this.workers++;
    const worker = new Worker(this.script);
    worker.on('message', (reply: DeriveReply) => this.finished(worker, reply));
    worker.on('error', (error) => this.lost(worker, error));
    worker.on('exit', (code) => this.lost(worker, new Error(`password worker exited (${code})`)));
    return worker;
  }

  private start(worker: Worker, job: Job): void {
    const id = this.nextId++;
    this.running.set(worker, { id, job, startedAt: performance.now() });
    worker.ref();
    worker.postMessage({ id, ...job.params } satisfies DeriveRequest);
  }

  private finished(worker: Worker, reply: DeriveReply): void {
    const running = this.running.get(worker);
    if (!running || running.id !== reply.id) return;
    this.running.delete(worker);
    this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - running.startedAt);
    if ('error' in reply) running.job.reject(new Error(`password hashing failed: ${reply.error}`));
    else running.job.resolve(Buffer.from(reply.key));
    this.next(worker);
  }

  /** A worker that failed or exited: its job fails, and queued jobs get a new worker. */
  private lost(worker: Worker, error: Error): void {
    const running = this.running.get(worker);
    const idleAt = this.idle.indexOf(worker);
    if (!running && idleAt < 0) return;
    this.running.delete(worker);
    if (idleAt >= 0) this.idle.splice(idleAt, 1);
    this.workers--;
    running?.job.reject(error);
    if (this.closed) return;
    const replacement = this.queues.trusted.length + this.queues.untrusted.length > 0;
    if (replacement) this.next(this.freeWorker()!);
  }

  private next(worker: Worker): void {
    const job = this.queues.trusted.shift() ?? this.queues.untrusted.shift();
    if (job) return this.start(worker, job);
    // An idle worker never keeps the process alive.
    worker.unref();
    this.idle.push(worker);
  }
}
