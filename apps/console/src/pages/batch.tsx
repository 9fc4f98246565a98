import { useState } from 'preact/hooks';
import { field } from '../form-field';
import type { BatchType } from '@verity/contracts/batch';
import type { ConsoleBatchJob } from '@verity/contracts/console';
import { api } from '../api';
import { Empty, ErrorNote, Loading } from '../components/states';
import { formatNumber } from '../format';
import { guessColumn, previewFile, type FilePreview } from './file-preview';
import { JOBS_PER_PAGE, useJobList, type StatusFilter } from './job-list';
import { jobName, JobsTable } from './jobs-table';
import { UploadPreview } from './upload-preview';

const FILTERS: { value: StatusFilter; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'queued', label: 'Queued' },
  { value: 'processing', label: 'Processing' },
  { value: 'done', label: 'Done' },
  { value: 'failed', label: 'Failed or cancelled' },
  { value: 'cancelled', label: 'Cancelled' },
];

/** The chosen file as the browser read it, and the column chosen (0-based; null: none yet). */
interface Chosen {
  name: string;
  size: number;
  preview: FilePreview;
  column: number | null;
  header: boolean;
}

export function BatchPage() {
  const [status, setStatus] = useState<StatusFilter>('');
  const jobs = useJobList(status);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<ConsoleBatchJob | null>(null);
  const [cancelError, setCancelError] = useState<unknown>(null);
  const [cancelled, setCancelled] = useState<ConsoleBatchJob | null>(null);
  const [type, setType] = useState<BatchType>('email');
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [readError, setReadError] = useState<unknown>(null);

  // The file is read in the browser when chosen: its columns, first rows and cost before upload.
  const choose = async (file: File | undefined) => {
    setChosen(null);
    setReadError(null);
    if (!file) return;
    try {
      const preview = await previewFile(file);
      const column = preview.width > 1 ? guessColumn(preview, type) : null;
      setChosen({ name: file.name, size: file.size, preview, column, header: preview.header });
    } catch (err) {
      setReadError(err);
    }
  };

  const changeType = (next: BatchType) => {
    setType(next);
    // The type guesses the column again; without a guess for it, the column chosen stays.
    if (chosen && chosen.preview.width > 1)
      setChosen({ ...chosen, column: guessColumn(chosen.preview, next) ?? chosen.column });
  };

  const cancel = async (job: { id: string }) => {
    setCancelError(null);
    setCancelled(null);
    try {
      const ended = await api('cancelJob', { params: { jobId: job.id } });
      jobs.replace(ended);
      setCancelled(ended);
    } catch (err) {
      setCancelError(err);
      // It may have ended meanwhile (422): show it as it is now.
      void jobs.refresh(job.id);
    }
  };

  const upload = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    // Every field before the file, so the API checks them before it stores the upload.
    const body = new FormData();
    body.append('type', field(data, 'type'));
    const webhook = field(data, 'webhook_url').trim();
    if (webhook) body.append('webhook_url', webhook);
    // A multi-column file: the chosen column by its 1-based index, and whether line 1 is a header.
    if (chosen && chosen.preview.width > 1 && chosen.column !== null) {
      body.append('column', String(chosen.column + 1));
      body.append('header', String(chosen.header));
    }
    if (field(data, 'fields') === 'all') body.append('fields', 'all');
    body.append('file', data.get('file') as File);
    setBusy(true);
    setError(null);
    setCreated(null);
    try {
      setCreated(await api('createJob', { body }));
      form.reset();
      setChosen(null);
      setType('email');
      jobs.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <section class="card" aria-labelledby="upload-h">
        <h2 id="upload-h">Upload a CSV</h2>
        <p class="hint">
          One value per line, or any CSV export: choose the file and its first rows show here, with
          its columns to choose from and the cost, before anything is uploaded. The result keeps
          every column and adds the results. A first line that is a header is skipped and free. 1
          credit per row, charged when the job is created; rows not processed are refunded if the
          job fails or you cancel it.
        </p>
        <form class="stack upload" onSubmit={(e) => void upload(e)}>
          <label for="batch-type">Type</label>
          <select
            id="batch-type"
            name="type"
            required
            value={type}
            onChange={(e) => changeType(e.currentTarget.value as BatchType)}
          >
            <option value="email">Email</option>
            <option value="phone">Phone</option>
            <option value="ip">IP</option>
          </select>
          <label for="batch-file">CSV file</label>
          <input
            id="batch-file"
            name="file"
            type="file"
            accept=".csv,text/csv"
            required
            onChange={(e) => void choose(e.currentTarget.files?.[0])}
          />
          {chosen && (
            <UploadPreview
              name={chosen.name}
              size={chosen.size}
              preview={chosen.preview}
              column={chosen.column}
              header={chosen.header}
              onColumn={(column) => setChosen({ ...chosen, column })}
              onHeader={(header) => setChosen({ ...chosen, header })}
            />
          )}
          <ErrorNote error={readError} />
          <label for="batch-fields">Result columns</label>
          <select id="batch-fields" name="fields">
            <option value="spec">Standard</option>
            <option value="all">All fields</option>
          </select>
          <label for="batch-webhook">Webhook URL (optional)</label>
          <input
            id="batch-webhook"
            name="webhook_url"
            type="url"
            placeholder="https://example.com/hooks/verity"
          />
          <button class="primary" type="submit" disabled={busy}>
            {busy ? 'Uploading…' : 'Start job'}
          </button>
        </form>
        {created && (
          <p role="status">
            Job <code>{created.id}</code> created with {formatNumber(created.total_rows)}{' '}
            {created.total_rows === 1 ? 'row' : 'rows'}.
          </p>
        )}
        <ErrorNote error={error} />
      </section>
      <section class="card" aria-labelledby="jobs-h">
        <h2 id="jobs-h">Jobs</h2>
        <div class="filters">
          <label for="batch-status">Status</label>
          <select
            id="batch-status"
            value={status}
            onChange={(e) => setStatus(e.currentTarget.value as StatusFilter)}
          >
            {FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </div>
        {cancelled && (
          <p role="status" class="notice">
            Job “{jobName(cancelled)}” cancelled: {formatNumber(cancelled.refunded_credits)} credits
            refunded.
          </p>
        )}
        <ErrorNote error={cancelError} />
        <ErrorNote error={jobs.error} />
        {!jobs.jobs ? (
          <Loading label="jobs" />
        ) : jobs.jobs.length === 0 ? (
          status ? (
            <Empty>No {FILTERS.find((f) => f.value === status)?.label.toLowerCase()} jobs.</Empty>
          ) : (
            <Empty>No jobs yet. Upload a CSV above to start one.</Empty>
          )
        ) : (
          <>
            <JobsTable jobs={jobs.jobs} onCancel={(job) => void cancel(job)} />
            <div class="pager">
              <span class="hint" data-shown={jobs.jobs.length}>
                {formatNumber(jobs.jobs.length)} {jobs.jobs.length === 1 ? 'job' : 'jobs'} shown
                {jobs.next ? '; older ones follow' : ''}
              </span>
              {jobs.next && (
                <button type="button" disabled={jobs.loadingMore} onClick={jobs.more}>
                  {jobs.loadingMore ? 'Loading…' : `Load ${JOBS_PER_PAGE} more`}
                </button>
              )}
            </div>
          </>
        )}
      </section>
    </>
  );
}
