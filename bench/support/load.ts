import autocannon from 'autocannon';

/** One load run's outcome. Latencies are in milliseconds, from the client's own timer. */
export interface LoadResult {
  label: string;
  durationS: number;
  connections: number;
  requests: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  /** Offered rate, when the run was rate-limited (autocannon `overallRate`). */
  offeredRate: number | undefined;
}

export interface LoadOptions {
  label: string;
  url: string;
  connections: number;
  durationS: number;
  headers?: Record<string, string>;
  /** Request bodies, each connection cycles through them in order. */
  bodies: string[];
  overallRate?: number;
  /** Stop after this many requests instead of after `durationS` (which then only labels). */
  amount?: number;
  /** Seconds before a request counts as an error (autocannon's default: 10). */
  timeoutS?: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/**
 * Drives `url` with autocannon (pipelining 1) for a fixed duration. Percentiles come from
 * every response's own hrtime latency (autocannon's histogram rounds to whole milliseconds,
 * too coarse for sub-millisecond answers).
 */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const samples: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        pipelining: 1,
        duration: options.durationS,
        headers: { 'content-type': 'application/json', ...options.headers },
        requests: options.bodies.map((body) => ({ method: 'POST', body })),
        ...(options.overallRate ? { overallRate: options.overallRate } : {}),
        ...(options.amount ? { amount: options.amount } : {}),
        ...(options.timeoutS ? { timeout: options.timeoutS } : {}),
      },
      (error, result) => {
        if (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        const sorted = Float64Array.from(samples).sort();
        resolve({
          label: options.label,
          durationS: options.durationS,
          connections: options.connections,
          requests: result.requests.total,
          reqPerSec: result.requests.total / options.durationS,
          p50: percentile(sorted, 0.5),
          p99: percentile(sorted, 0.99),
          max: sorted.length > 0 ? sorted[sorted.length - 1] : Number.NaN,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
          offeredRate: options.overallRate,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) samples.push(responseTime);
    });
  });
}

/** One aligned line per run. */
export function formatLoad(r: LoadResult): string {
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  const rate = r.offeredRate ? ` (offered ${Math.round(r.offeredRate)}/s)` : '';
  const bad = r.non2xx + r.errors > 0 ? `  NON-2XX ${r.non2xx} ERRORS ${r.errors}` : '';
  return `${r.label.padEnd(44)} ${Math.round(r.reqPerSec).toString().padStart(7)} req/s${rate}  p50 ${ms(r.p50)}  p99 ${ms(r.p99)}  max ${ms(r.max)}  (${r.requests} req, ${r.connections} conn, ${r.durationS} s)${bad}`;
}
