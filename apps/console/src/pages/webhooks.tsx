import { useState } from 'preact/hooks';
import type { WebhookDelivery } from '@verity/contracts/console';
import { api } from '../api';
import { ConfirmButton } from '../components/confirm';
import { SecretOnce } from '../components/secret-once';
import { Empty, ErrorNote, Loading } from '../components/states';
import { field } from '../form-field';
import { formatTime } from '../format';
import { useLoad } from '../use-load';

export function WebhooksPage() {
  const list = useLoad(() => api('webhooks'));
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const act = (route: 'revealWebhookSecret' | 'rotateWebhookSecret') => {
    setError(null);
    api(route)
      .then((s) => setSecret(s.secret))
      .catch(setError);
  };
  const sendTest = (e: Event) => {
    e.preventDefault();
    const url = field(new FormData(e.currentTarget as HTMLFormElement), 'url').trim();
    setError(null);
    setNotice(null);
    setSending(true);
    api('testWebhook', { body: { url } })
      .then((d) => {
        setNotice(
          d.error === null
            ? `Test event delivered: ${url} answered HTTP ${d.status_code}.`
            : `Test event not delivered: ${d.error}.`,
        );
        list.reload();
      })
      .catch(setError)
      .finally(() => setSending(false));
  };
  const resend = (d: WebhookDelivery) => {
    setError(null);
    setNotice(null);
    api('resendWebhook', { params: { id: d.id } })
      .then((r) => {
        setNotice(
          `The webhook of ${r.job_id} is queued again: attempt ${r.attempt} appears below once made.`,
        );
        setTimeout(list.reload, 1500);
      })
      .catch(setError);
  };
  return (
    <>
      <section class="card" aria-labelledby="secret-h">
        <h2 id="secret-h">Signing secret</h2>
        <p class="hint">
          Each webhook carries a <code>Verity-Signature</code> header: an HMAC-SHA256 of the body
          with this secret. Check it before trusting a delivery.
        </p>
        {list.value?.instance_secret && (
          <p class="warning">
            This install signs every webhook with its operator's WEBHOOK_SECRET instead; ask the
            operator for it.
          </p>
        )}
        <div class="actions">
          <button type="button" onClick={() => act('revealWebhookSecret')}>
            Reveal secret
          </button>
          <ConfirmButton
            label="Rotate secret"
            question="Rotate the webhook signing secret? Deliveries from now on use the new one."
            confirmLabel="Rotate"
            onConfirm={() => act('rotateWebhookSecret')}
          />
        </div>
        {secret && <SecretOnce label="Webhook signing secret" value={secret} once={false} />}
      </section>
      <section class="card" aria-labelledby="test-h">
        <h2 id="test-h">Send a test event</h2>
        <p class="hint">
          A small JSON body with <code>"test": true</code>, signed exactly like a job's webhook,
          sent once now. The delivery appears in the list below.
        </p>
        <form class="inline" onSubmit={sendTest}>
          <label for="test-url">URL</label>
          <input
            id="test-url"
            name="url"
            type="url"
            required
            maxLength={2048}
            placeholder="https://example.com/hooks/verity"
          />
          <button class="primary" type="submit" disabled={sending}>
            {sending ? 'Sending…' : 'Send test event'}
          </button>
        </form>
      </section>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <ErrorNote error={error} />
      <section class="card" aria-labelledby="deliveries-h">
        <h2 id="deliveries-h">Delivery attempts</h2>
        <ErrorNote error={list.error} />
        {!list.value ? (
          <Loading label="deliveries" />
        ) : list.value.data.length === 0 ? (
          <Empty>
            No deliveries yet. Give a batch job a webhook URL and its result is posted there when it
            ends.
          </Empty>
        ) : (
          <div class="table-wrap">
            <table aria-label="Webhook delivery attempts">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Job</th>
                  <th scope="col">URL</th>
                  <th scope="col">Attempt</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Next retry</th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.value.data.map((d) => (
                  <tr key={d.id} data-delivery={d.id} data-job={d.job_id ?? 'test'}>
                    <td>{formatTime(d.attempted_at)}</td>
                    <td>{d.job_id ? <code>{d.job_id}</code> : 'Test event'}</td>
                    <td class="url">{d.url ? <code>{d.url}</code> : '—'}</td>
                    <td>{d.attempt}</td>
                    <td>
                      {d.status_code !== null ? `HTTP ${d.status_code}` : ''}
                      {d.error ? ` ${d.error}` : ''}
                    </td>
                    <td>{formatTime(d.next_retry_at)}</td>
                    <td>
                      {d.job_id && (
                        <button type="button" onClick={() => resend(d)}>
                          Resend
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
