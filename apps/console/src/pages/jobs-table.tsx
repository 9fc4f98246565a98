import type { ConsoleBatchJob, ConsoleJob } from '@verity/contracts/console';
import { ConfirmButton } from '../components/confirm';
import { FilteredDownload, SummaryChart } from '../components/summary-chart';
import { formatFullTime, formatNumber, formatTime } from '../format';
import { isActive } from './job-list';

type TableJob = ConsoleJob & Partial<ConsoleBatchJob>;

/**
 * Batch jobs by file name (and id) with their progress (processed of total rows) and the credits
 * refunded; a done job has its rows by verdict (a small chart, BatchJob.summary), a download
 * link and one for only some verdicts, a failed one its reason (and the summary of the rows it
 * scored). A job the account
 * cancelled reads Cancelled, apart from failures. With `onCancel`, a queued or processing job
 * has a Cancel button that confirms first, saying what is refunded.
 */
export function JobsTable({
  jobs,
  onCancel,
}: {
  jobs: TableJob[];
  onCancel?: (job: TableJob) => void;
}) {
  return (
    <div class="table-wrap">
      <table aria-label="Batch jobs">
        <thead>
          <tr>
            <th scope="col">File and job</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Rows processed</th>
            <th scope="col" class="num">
              Refunded
            </th>
            <th scope="col">Created, finished</th>
            <th scope="col">Result</th>
            {onCancel && (
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => {
            const pct = Math.floor((job.processed_rows / job.total_rows) * 100);
            const outcome = outcomeOf(job);
            return (
              <tr key={job.id} data-job={job.id} data-status={job.status}>
                <td class="job-name">
                  <span data-file-name title={job.file_name ?? undefined}>
                    {job.file_name ?? 'no file name'}
                  </span>
                  <code>{job.id}</code>
                </td>
                <td>{job.type}</td>
                <td>
                  <span class={`status status-${outcome}`} data-outcome={outcome}>
                    {OUTCOME_LABELS[outcome]}
                  </span>
                </td>
                <td class="rows" data-rows>
                  <progress
                    max={job.total_rows}
                    value={job.processed_rows}
                    aria-label={`Job ${job.id}: ${pct}% processed`}
                  />
                  {formatNumber(job.processed_rows)} / {formatNumber(job.total_rows)}
                </td>
                <td class="num" data-refunded>
                  {job.status === 'failed' ? formatNumber(job.refunded_credits) : '—'}
                </td>
                <td class="when">
                  <Moment iso={job.created_at} />
                  <br />
                  <Moment iso={job.finished_at} />
                </td>
                <td>
                  <Result job={job} outcome={outcome} />
                </td>
                {onCancel && (
                  <td>
                    {isActive(job) && (
                      <ConfirmButton
                        danger
                        label="Cancel"
                        name={`Cancel ${jobName(job)}`}
                        question={cancelQuestion(job)}
                        confirmLabel="Cancel job"
                        dismissLabel="Keep it running"
                        onConfirm={() => onCancel(job)}
                      />
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

type Outcome = ConsoleJob['status'] | 'cancelled';

const OUTCOME_LABELS: Record<Outcome, string> = {
  queued: 'Queued',
  processing: 'Processing',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

function outcomeOf(job: ConsoleJob): Outcome {
  return job.status === 'failed' && job.failure_code === 'cancelled' ? 'cancelled' : job.status;
}

/** The job as people know it: its file's name, else its id. */
export function jobName(job: ConsoleJob): string {
  return job.file_name ?? job.id;
}

function cancelQuestion(job: ConsoleJob): string {
  const left = job.total_rows - job.processed_rows;
  return (
    `Cancel job “${jobName(job)}”? Rows not yet processed (${formatNumber(left)} of ` +
    `${formatNumber(job.total_rows)}) are refunded; rows already processed stay charged and ` +
    `can be downloaded.`
  );
}

function Result({ job, outcome }: { job: TableJob; outcome: Outcome }) {
  const summary = job.summary && <SummaryChart type={job.type} summary={job.summary} />;
  switch (outcome) {
    case 'done':
      return (
        <>
          {summary}
          {job.result_url ? (
            <>
              <a class="button" href={job.result_url} download>
                Download
              </a>
              <FilteredDownload type={job.type} resultUrl={job.result_url} />
            </>
          ) : (
            <a href="/console/batch">On the Batch page</a>
          )}
        </>
      );
    case 'failed':
      return (
        <>
          {summary}
          <span class="failed-note">{job.failure_reason ?? 'failed'}</span>
          <PartialDownload job={job} />
        </>
      );
    case 'cancelled':
      return (
        <>
          {summary}
          {job.partial_result_url ? <PartialDownload job={job} /> : !summary && <>—</>}
        </>
      );
    case 'queued':
    case 'processing':
      return <>—</>;
  }
}

/** A failed job's scored rows (partial_result_url), where the job list carries the link. */
function PartialDownload({ job }: { job: TableJob }) {
  if (!job.partial_result_url) return null;
  return (
    <a
      class="button"
      href={job.partial_result_url}
      download
      aria-label={`Download the ${formatNumber(job.processed_rows)} scored rows of ${jobName(job)}`}
    >
      Download scored rows
    </a>
  );
}

function Moment({ iso }: { iso: string | null }) {
  if (!iso) return <>—</>;
  return (
    <time dateTime={iso} title={formatFullTime(iso)}>
      {formatTime(iso)}
    </time>
  );
}
