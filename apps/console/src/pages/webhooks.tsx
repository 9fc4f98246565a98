import { useState } from 'preact/hooks';
import type { ConsoleWebhooks, WebhookSecret } from '@verity/contracts/console';
import { api } from '../api';
import { ConfirmButton } from '../components/confirm';
import { SecretOnce } from '../components/secret-once';
import { Empty, ErrorNote, Loading } from '../components/states';
import { formatTime } from '../format';
import { useLoad } from '../use-load';

export function WebhooksPage() {
  const list = useLoad(() => api<ConsoleWebhooks>('GET', '/webhooks'));
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const act = (path: string) => {
    setError(null);
    api<WebhookSecret>('POST', path)
      .then((s) => setSecret(s.secret))
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
          <button type="button" onClick={() => act('/webhooks/secret/reveal')}>
            Reveal secret
          </button>
          <ConfirmButton
            label="Rotate secret"
            question="Rotate the webhook signing secret? Deliveries from now on use the new one."
            confirmLabel="Rotate"
            onConfirm={() => act('/webhooks/secret/rotate')}
          />
        </div>
        {secret && <SecretOnce label="Webhook signing secret" value={secret} once={false} />}
        <ErrorNote error={error} />
      </section>
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
                  <th scope="col">Attempt</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Next retry</th>
                </tr>
              </thead>
              <tbody>
                {list.value.data.map((d) => (
                  <tr key={`${d.job_id}-${d.attempt}`}>
                    <td>{formatTime(d.attempted_at)}</td>
                    <td>
                      <code>{d.job_id}</code>
                    </td>
                    <td>{d.attempt}</td>
                    <td>
                      {d.status_code !== null ? `HTTP ${d.status_code}` : ''}
                      {d.error ? ` ${d.error}` : ''}
                    </td>
                    <td>{formatTime(d.next_retry_at)}</td>
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
