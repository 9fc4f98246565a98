import type { FeedbackOutcome, FeedbackResult, FeedbackStats } from '@verity/contracts/wire';
import type { Transport } from './transport';

/** The values of a report without a request_id (any of them). */
export interface FeedbackValues {
  email?: string;
  phone?: string;
  ip?: string;
}

/**
 * How verify calls turned out: reported outcomes raise (fraud) or lower (legitimate) the later
 * scores of the same email, phone and IP address in this account. Free.
 */
export class FeedbackResource {
  constructor(private readonly transport: Transport) {}

  /**
   * Reports the outcome of a verify call by its `request_id`, or of values seen elsewhere.
   * Reporting a call again replaces its outcome, so a retry is safe; a report by values adds
   * weight each time.
   * @example await verity.feedback.report(verdict.request_id, 'fraud');
   * @example await verity.feedback.report({ ip: '203.0.113.7' }, 'legitimate');
   */
  report(
    call: string | FeedbackValues,
    outcome: FeedbackOutcome,
    options: { signal?: AbortSignal } = {},
  ): Promise<FeedbackResult> {
    const byRequest = typeof call === 'string';
    return this.transport.json<FeedbackResult>({
      method: 'POST',
      url: '/v1/feedback',
      json: byRequest ? { request_id: call, outcome } : { ...call, outcome },
      idempotent: byRequest,
      signal: options.signal,
    });
  }

  /**
   * What the reported outcomes say about the scores of the key's mode: AUC, precision per
   * reason, fraud rate per score band.
   * @example const { auc, labelled_calls } = await verity.feedback.stats();
   */
  stats(options: { signal?: AbortSignal } = {}): Promise<FeedbackStats> {
    return this.transport.json<FeedbackStats>({
      method: 'GET',
      url: '/v1/feedback/stats',
      idempotent: true,
      signal: options.signal,
    });
  }
}
