import {
  ALL_BATCH_VERDICTS,
  BATCH_VERDICTS,
  type BatchType,
  type BatchVerdict,
} from '@verity/contracts/wire';
import type { BatchJob } from '../index';
import { UsageError } from './usage.error';

/**
 * `--only V,V`: the verdicts a download keeps. Checked against the type's verdicts when it is
 * known (`batch run`, before anything is uploaded or charged), else against every type's (the
 * server answers 400 for one the job's type does not have).
 */
export function onlyOf(value: string | undefined, type?: BatchType): BatchVerdict[] | undefined {
  if (value === undefined) return undefined;
  const known: readonly string[] = type === undefined ? ALL_BATCH_VERDICTS : BATCH_VERDICTS[type];
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.find((name) => !known.includes(name));
  if (names.length === 0 || unknown !== undefined)
    throw new UsageError(
      `--only takes verdicts separated by commas${type === undefined ? '' : ` (${type}: ${known.join(', ')})`}${unknown === undefined ? '' : `; "${unknown}" is none`}`,
    );
  return names as BatchVerdict[];
}

/** `812 deliverable · 90 risky · …`: a finished job's summary in one line; null without one. */
export function summaryLine(job: BatchJob): string | null {
  if (job.summary === null) return null;
  const counts = BATCH_VERDICTS[job.type].map(
    (verdict) => `${(job.summary?.[verdict] ?? 0).toLocaleString('en')} ${verdict}`,
  );
  return counts.join(' · ');
}
