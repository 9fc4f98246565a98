import type { ConsoleBatchJob, ConsoleJob } from '@verity/contracts/console';
import { formatFullTime, formatNumber, formatTime } from '../format';

/**
 * Batch jobs by file name (and id) with their progress (processed of total rows); a done job has a download link, a
 * failed one its reason.
 */
export function JobsTable({ jobs }: { jobs: (ConsoleJob & Partial<ConsoleBatchJob>)[] }) {
  return (
    <div class="table-wrap">
      <table aria-label="Batch jobs">
        <thead>
          <tr>
            <th scope="col">File and job</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Rows processed</th>
            <th scope="col">Created</th>
            <th scope="col">Finished</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => {
            const pct = Math.floor((job.processed_rows / job.total_rows) * 100);
            return (
              <tr key={job.id} data-job={job.id} data-status={job.status}>
                <td class="job-name">
                  <span data-file-name>{job.file_name ?? 'no file name'}</span>
                  <code>{job.id}</code>
                </td>
                <td>{job.type}</td>
                <td>
                  <span class={`status status-${job.status}`}>{job.status}</span>
                </td>
                <td class="rows" data-rows>
                  <progress
                    max={job.total_rows}
                    value={job.processed_rows}
                    aria-label={`Job ${job.id}: ${pct}% processed`}
                  />{' '}
                  {formatNumber(job.processed_rows)} / {formatNumber(job.total_rows)}
                </td>
                <td class="when">
                  <Moment iso={job.created_at} />
                </td>
                <td class="when">
                  <Moment iso={job.finished_at} />
                </td>
                <td>
                  {job.status === 'done' && job.result_url ? (
                    <a class="button" href={job.result_url} download>
                      Download
                    </a>
                  ) : job.status === 'done' ? (
                    <a href="/console/batch">On the Batch page</a>
                  ) : job.status === 'failed' ? (
                    <span class="failed-note">
                      {job.failure_reason ?? 'failed'}; refunded{' '}
                      {formatNumber(job.refunded_credits)} credits
                    </span>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
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
