import { Inject, Injectable } from '@nestjs/common';
import { HISTORY_CONFIG, type HistoryConfig } from '@verity/config';
import type { FeedbackStats } from '@verity/contracts';
import { VerifyFeedbackRepository } from '../db/verify-feedback.repository';
import { retentionStart } from '../history-policy';
import type { HistoryScope } from '../values/value-keys';
import { feedbackStats } from './feedback-stats';

/** GET /v1/feedback/stats and the console's Outcomes page: two aggregate queries. */
@Injectable()
export class FeedbackStatsService {
  constructor(
    @Inject(HISTORY_CONFIG) private readonly config: HistoryConfig,
    private readonly reports: VerifyFeedbackRepository,
  ) {}

  async stats(scope: HistoryScope): Promise<FeedbackStats> {
    const since = retentionStart(this.config, Date.now());
    const [scores, reasons] = await Promise.all([
      this.reports.labelledScores(scope, since),
      this.reports.labelledReasons(scope, since),
    ]);
    return feedbackStats(scope.mode, this.config.HISTORY_RETENTION_DAYS, scores, reasons);
  }
}
