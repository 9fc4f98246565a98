import { fork, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import {
  isAllocationsReply,
  isServerReady,
  isStallsReply,
  isStatsReply,
  type AllocationSite,
  type AllocationsRequest,
  type ServerReady,
  type StallReport,
  type StallsRequest,
  type StatsRequest,
} from './server-protocol';

/** A benchmark server running in its own process. */
export interface ChildServer {
  pid: number;
  port: number;
  apiKey: string | undefined;
  /** SQL statements the child has sent so far (Verity children only). */
  statements(): Promise<number>;
  /**
   * Samples what the child allocates while `run` runs (Verity children only): the bytes and
   * the sites, largest first (bench/support/allocation-sampler.ts).
   */
  allocations<R>(
    run: () => Promise<R>,
  ): Promise<{ result: R; bytes: number; sites: AllocationSite[] }>;
  /** Watches the child's event loop for stalls while `run` runs (bench/support/stall-monitor.ts). */
  stalls<R>(run: () => Promise<R>): Promise<{ result: R; report: StallReport }>;
  stop(): Promise<void>;
}

export interface ChildServerOptions {
  /** Compiled file name next to this one, e.g. `verity-server.child.js`, or an absolute path. */
  script: string;
  env: Record<string, string>;
  /** Where the child's stdout (the pino log) goes: a file path or /dev/null. */
  stdoutPath: string;
  execArgv?: string[];
  /** A command the child runs under, e.g. valgrind and its options (node and its flags follow). */
  wrapper?: string[];
  startTimeoutMs?: number;
}

/** Forks a server child and resolves once it reports its port. */
export function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  const out = openSync(options.stdoutPath, 'a');
  const script = isAbsolute(options.script) ? options.script : join(__dirname, options.script);
  // BENCH_NODE_ARGS: extra node/V8 flags for every server child, bare and Verity alike (V8
  // flags such as --no-memory-reducer are refused in NODE_OPTIONS).
  const nodeFlags = [
    ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ...(options.execArgv ?? []),
  ];
  const [wrapper, ...wrapperArgs] = options.wrapper ?? [];
  const child: ChildProcess = fork(script, [], {
    env: {
      PATH: process.env.PATH ?? '',
      ...(process.env.NODE_PATH ? { NODE_PATH: process.env.NODE_PATH } : {}),
      ...options.env,
    },
    ...(wrapper === undefined
      ? { execArgv: nodeFlags }
      : { execPath: wrapper, execArgv: [...wrapperArgs, process.execPath, ...nodeFlags] }),
    stdio: ['ignore', out, 'inherit', 'ipc'],
  });
  closeSync(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`${options.script} did not start within ${options.startTimeoutMs ?? 120_000} ms`),
      );
    }, options.startTimeoutMs ?? 120_000);
    const early = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${options.script} exited with code ${String(code)} before listening`));
    };
    child.once('exit', early);
    child.on('message', (message) => {
      if (!isServerReady(message)) return;
      clearTimeout(timer);
      child.off('exit', early);
      const ready: ServerReady = message;
      resolve({
        pid: child.pid ?? -1,
        port: ready.port,
        apiKey: ready.apiKey,
        statements: async () =>
          (await ask(child, { type: 'stats' } satisfies StatsRequest, isStatsReply)).statements,
        async allocations(run) {
          await ask(
            child,
            { type: 'allocations', on: true } satisfies AllocationsRequest,
            isAllocationsReply,
          );
          const result = await run();
          const { bytes = 0, sites = [] } = await ask(
            child,
            { type: 'allocations', on: false } satisfies AllocationsRequest,
            isAllocationsReply,
          );
          return { result, bytes, sites };
        },
        async stalls(run) {
          await ask(child, { type: 'stalls', on: true } satisfies StallsRequest, isStallsReply);
          const result = await run();
          const { report } = await ask(
            child,
            { type: 'stalls', on: false } satisfies StallsRequest,
            isStallsReply,
          );
          if (!report) throw new Error(`${options.script} sent no stall report`);
          return { result, report };
        },
        async stop() {
          if (child.exitCode !== null) return;
          child.send({ type: 'stop' });
          const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(killer);
        },
      });
    });
  });
}

/** Sends `message` to the child and resolves with its first answer that `isReply` accepts. */
function ask<R>(
  child: ChildProcess,
  message: object,
  isReply: (reply: unknown) => reply is R,
): Promise<R> {
  return new Promise<R>((answer) => {
    const onReply = (reply: unknown) => {
      if (!isReply(reply)) return;
      child.off('message', onReply);
      answer(reply);
    };
    child.on('message', onReply);
    child.send(message);
  });
}
