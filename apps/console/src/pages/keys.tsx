import { useState } from 'preact/hooks';
import { field } from '../form-field';
import type { IssuedApiKey, KeyMode } from '@verity/contracts/account';
import { api } from '../api';
import { ConfirmButton } from '../components/confirm';
import { SecretOnce } from '../components/secret-once';
import { Empty, ErrorNote, Loading } from '../components/states';
import { formatTime } from '../format';
import { useLoad } from '../use-load';

export function KeysPage() {
  const keys = useLoad(() => api('keys'));
  const [issued, setIssued] = useState<{ what: string; key: IssuedApiKey } | null>(null);
  const [error, setError] = useState<unknown>(null);

  const run = async (what: string, action: () => Promise<IssuedApiKey | undefined>) => {
    setError(null);
    setIssued(null);
    try {
      const key = await action();
      if (key) setIssued({ what, key });
      keys.reload();
    } catch (err) {
      setError(err);
    }
  };

  const create = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const name = field(data, 'name').trim();
    const mode = field(data, 'mode') as KeyMode;
    void run(`New ${mode} key “${name}”, its value`, async () => {
      const key = await api('createKey', { body: { name, mode } });
      form.reset();
      return key;
    });
  };

  return (
    <>
      <section class="card" aria-labelledby="create-h">
        <h2 id="create-h">Create a key</h2>
        <p class="hint">
          One key per environment (development, staging, production), kept in an environment
          variable. Send it as <code>X-Api-Key</code>. A <strong>test</strong> key (
          <code>vrt_test_…</code>) answers the same shapes for free, offline, with documented magic
          inputs: for your CI.
        </p>
        <form class="inline" onSubmit={create}>
          <label for="key-name">Name</label>
          <input id="key-name" name="name" required maxLength={100} placeholder="production" />
          <label for="key-mode">Mode</label>
          <select id="key-mode" name="mode">
            <option value="live">Live</option>
            <option value="test">Test (free, offline)</option>
          </select>
          <button class="primary" type="submit">
            Create key
          </button>
        </form>
        {issued && <SecretOnce label={issued.what} value={issued.key.key} />}
        <ErrorNote error={error} />
      </section>

      <section class="card" aria-labelledby="keys-h">
        <h2 id="keys-h">Active keys</h2>
        <ErrorNote error={keys.error} />
        {!keys.value ? (
          <Loading label="keys" />
        ) : keys.value.data.length === 0 ? (
          <Empty>No active keys. Create one above to call the API.</Empty>
        ) : (
          <div class="table-wrap">
            <table aria-label="API keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Rotated</th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.value.data.map((k) => (
                  <tr key={k.id} data-key={k.id}>
                    <th scope="row">
                      {k.name}
                      {k.mode === 'test' && <span class="badge-test">test</span>}
                    </th>
                    <td>
                      <code>{k.hint}</code>
                    </td>
                    <td>{formatTime(k.created_at)}</td>
                    <td title="Recorded about once a minute">{formatTime(k.last_used_at)}</td>
                    <td>{formatTime(k.rotated_at)}</td>
                    <td class="actions">
                      <ConfirmButton
                        label={`Rotate ${k.name}`}
                        question={`Rotate the key “${k.name}”? Its current value stops working at once.`}
                        confirmLabel="Rotate"
                        onConfirm={() =>
                          void run(
                            `${capitalised(k.mode)} key “${k.name}” rotated, its new value`,
                            () => api('rotateKey', { params: { id: k.id } }),
                          )
                        }
                      />
                      <ConfirmButton
                        danger
                        label={`Delete ${k.name}`}
                        question={`Delete the key “${k.name}”? Calls with it will get 401 at once.`}
                        confirmLabel="Delete"
                        onConfirm={() =>
                          void run('', async () => {
                            await api('revokeKey', { params: { id: k.id } });
                            return undefined;
                          })
                        }
                      />
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

function capitalised(mode: KeyMode): string {
  return mode[0].toUpperCase() + mode.slice(1);
}
