import { Agent, request } from 'node:http';
import type { LoadResult } from './load';

export interface PacedLoadOptions {
  label: string;
  url: string;
  /** Requests per second, spread evenly (≈1 ms ticks), open loop. */
  rate: number;
  durationS: number;
  /** Keep-alive sockets the client may open (more are never needed at a sustainable rate). */
  maxSockets: number;
  headers?: Record<string, string>;
  bodies: string[];
}

/**
 * An open-loop load at an even pace. autocannon's `overallRate` sends each connection's
 * per-second quota back to back and then idles until the next second, so its "half load" is
 * full load for half of every second; this spreads the requests over the second instead.
 * Latency is measured from the moment a request is issued (including any wait for a socket),
 * so a server that falls behind shows it.
 */
export function runPacedLoad(options: PacedLoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets });
  const samples: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let issued = 0;
  let done = 0;
  const total = Math.round(options.rate * options.durationS);
  const start = performance.now();

  return new Promise((resolve) => {
    const finish = () => {
      agent.destroy();
      const sorted = Float64Array.from(samples).sort();
      const pick = (p: number) =>
        sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ??
        Number.NaN;
      const elapsedS = (performance.now() - start) / 1000;
      resolve({
        label: options.label,
        durationS: options.durationS,
        connections: options.maxSockets,
        requests: done,
        reqPerSec: done / elapsedS,
        p50: pick(0.5),
        p99: pick(0.99),
        max: sorted.length > 0 ? sorted[sorted.length - 1] : Number.NaN,
        non2xx,
        errors,
        offeredRate: options.rate,
      });
    };
    const send = () => {
      const body = options.bodies[issued % options.bodies.length];
      issued++;
      const t0 = performance.now();
      const req = request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            ...options.headers,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            if (status >= 200 && status < 300) samples.push(performance.now() - t0);
            else non2xx++;
            if (++done === total) finish();
          });
        },
      );
      req.on('error', () => {
        errors++;
        if (++done === total) finish();
      });
      req.end(body);
    };
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * options.rate));
      while (issued < due) send();
      if (issued < total) setTimeout(tick, 1);
    };
    tick();
  });
}
