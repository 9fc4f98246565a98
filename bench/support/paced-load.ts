import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { LoadResult } from './load';
import { rawPost, RawHttpPool } from './raw-http.client';

export interface PacedLoadOptions {
  label: string;
  url: string;
  /** Requests per second, spread evenly (≈1 ms ticks), open loop. */
  rate: number;
  durationS: number;
  /**
   * Keep-alive connections the client opens. An open-loop client needs enough that a request
   * never waits for a free one (many callers, as in front of a real API): with only as many as
   * the closed-loop runs use, requests queued in the client's own pool, and that wait counted
   * as server latency. `poolWaitP99` shows whether any wait remains.
   */
  maxSockets: number;
  headers?: Record<string, string>;
  bodies: string[];
}

/** A paced run's outcome, with what the client itself did to the figures. */
export interface PacedLoadResult extends LoadResult {
  /** p99 and max of the latency measured from the actual send instead of the scheduled one. */
  fromSendP99: number;
  fromSendMax: number;
  /** How late the client sent requests after their scheduled time (its own timer and stalls), ms. */
  sendLagP99: number;
  sendLagMax: number;
  /** How long requests waited in the client's socket pool before being written, ms. */
  poolWaitP99: number;
  poolWaitMax: number;
  /** The client's event-loop delay (node:perf_hooks), ms: its own stalls. */
  clientLoopDelayP99: number;
  clientLoopDelayMax: number;
}

/**
 * An open-loop load at an even pace. autocannon's `overallRate` sends each connection's
 * per-second quota back to back and then idles until the next second, so its "half load" is
 * full load for half of every second; this spreads the requests over the second instead.
 * Request i is due at start + i / rate, and its latency is measured from that scheduled time
 * (coordinated omission: a request the client sent late, because the server held every socket
 * or because the client itself stalled, counts the whole wait). The latency from the actual
 * send, how late sends were and the client's own event-loop delay are reported next to it, so a
 * stall of the client is not mistaken for one of the server.
 */
export async function runPacedLoad(options: PacedLoadOptions): Promise<PacedLoadResult> {
  const target = new URL(options.url);
  const pool = await RawHttpPool.open(target, options.maxSockets);
  const requests = options.bodies.map((body) => rawPost(target, body, options.headers ?? {}));
  const samples: number[] = [];
  const fromSend: number[] = [];
  const sendLag: number[] = [];
  const poolWait: number[] = [];
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  let non2xx = 0;
  let errors = 0;
  let issued = 0;
  let done = 0;
  const total = Math.round(options.rate * options.durationS);
  const start = performance.now();
  const interval = 1000 / options.rate;
  loopDelay.enable();

  return new Promise((resolve) => {
    const finish = () => {
      loopDelay.disable();
      pool.close();
      const sorted = Float64Array.from(samples).sort();
      const pick = (p: number, from: Float64Array = sorted) =>
        from[Math.min(from.length - 1, Math.max(0, Math.ceil(p * from.length) - 1))] ?? Number.NaN;
      const sent = Float64Array.from(fromSend).sort();
      const lag = Float64Array.from(sendLag).sort();
      const waited = Float64Array.from(poolWait).sort();
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
        fromSendP99: pick(0.99, sent),
        fromSendMax: sent.length > 0 ? sent[sent.length - 1] : Number.NaN,
        sendLagP99: pick(0.99, lag),
        sendLagMax: lag.length > 0 ? lag[lag.length - 1] : Number.NaN,
        poolWaitP99: pick(0.99, waited),
        poolWaitMax: waited.length > 0 ? waited[waited.length - 1] : Number.NaN,
        clientLoopDelayP99: loopDelay.percentile(99) / 1e6,
        clientLoopDelayMax: loopDelay.max / 1e6,
      });
    };
    const send = () => {
      const request = requests[issued % requests.length];
      const scheduled = start + issued * interval;
      issued++;
      const t0 = performance.now();
      sendLag.push(t0 - scheduled);
      pool.send(
        request,
        () => poolWait.push(performance.now() - t0),
        (answer) => {
          const now = performance.now();
          if ('error' in answer) errors++;
          else if (answer.status >= 200 && answer.status < 300) {
            samples.push(now - scheduled);
            fromSend.push(now - t0);
          } else non2xx++;
          if (++done === total) finish();
        },
      );
    };
    const tick = () => {
      // Request i is due at start + i * interval.
      const due = Math.min(total, Math.floor((performance.now() - start) / interval) + 1);
      while (issued < due) send();
      if (issued < total) setTimeout(tick, 1);
    };
    tick();
  });
}
