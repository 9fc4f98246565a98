import { useEffect, useState } from 'preact/hooks';
import { field } from '../form-field';
import type { ConsoleBatchJob, ConsoleBatchJobs } from '@verity/contracts/console';
import { api } from '../api';
import { Empty, ErrorNote, Loading } from '../components/states';
import { useLoad } from '../use-load';
import { JobsTable } from './jobs-table';

const POLL_MS = 3_000;

export function BatchPage() {
  const jobs = useLoad(() => api<ConsoleBatchJobs>('GET', '/batch'));
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<ConsoleBatchJob | null>(null);
  const active = jobs.value?.data.some((j) => j.status === 'queued' || j.status === 'processing');

  // Live progress: poll while a job is queued or processing.
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(jobs.reload, POLL_MS);
    return () => clearInterval(timer);
  }, [active, jobs.reload]);

  const upload = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    // The API reads fields in order: type and webhook_url before the file.
    const body = new FormData();
    body.append('type', field(data, 'type'));
    const webhook = field(data, 'webhook_url').trim();
    if (webhook) body.append('webhook_url', webhook);
    body.append('file', data.get('file') as File);
    setBusy(true);
    setError(null);
    setCreated(null);
    try {
      setCreated(await api<ConsoleBatchJob>('POST', '/batch', body));
      form.reset();
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
          One value per line. A first line that is a column name (<code>email</code>,{' '}
          <code>phone</code>, <code>ip</code>, …) is a header: skipped and free. 1 credit per row,
          charged when the job is created; rows not processed are refunded if the job fails.
        </p>
        <form class="stack" onSubmit={(e) => void upload(e)}>
          <label for="batch-type">Type</label>
          <select id="batch-type" name="type" required>
            <option value="email">Email</option>
            <option value="phone">Phone</option>
            <option value="ip">IP</option>
          </select>
          <label for="batch-file">CSV file</label>
          <input id="batch-file" name="file" type="file" accept=".csv,text/csv" required />
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
            Job <code>{created.id}</code> created with {created.total_rows} rows.
          </p>
        )}
        <ErrorNote error={error} />
      </section>
      <section class="card" aria-labelledby="jobs-h">
        <h2 id="jobs-h">Jobs</h2>
        <ErrorNote error={jobs.error} />
        {!jobs.value ? (
          <Loading label="jobs" />
        ) : jobs.value.data.length === 0 ? (
          <Empty>No jobs yet. Upload a CSV above to start one.</Empty>
        ) : (
          <JobsTable jobs={jobs.value.data} />
        )}
      </section>
    </>
  );
}
