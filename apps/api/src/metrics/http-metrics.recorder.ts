import type { VerityMetrics } from '@verity/observability';
import type { ResponseRecorder } from '../http/request-hooks';

/**
 * Counts every answered request by method, route pattern and status, and its latency. The
 * route is the pattern (`/v1/batch/:jobId`), never the raw URL, so labels stay bounded.
 */
export function httpMetricsRecorder(metrics: VerityMetrics): ResponseRecorder {
  return (request, reply, route) => {
    const status = reply.statusCode;
    metrics.recordHttpRequest(request.method, route, status, reply.elapsedTime / 1000);
    if (status === 402) metrics.httpRejections.inc({ reason: 'insufficient_credits' });
    else if (status === 429) metrics.httpRejections.inc({ reason: 'rate_limited' });
  };
}
