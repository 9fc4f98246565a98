import { useState } from 'preact/hooks';
import { field } from '../form-field';
import { api } from '../api';
import { ErrorNote } from '../components/states';
import {
  PlaygroundResult,
  type PlaygroundAnswer,
  type PlaygroundKind as Kind,
} from './playground-result';
import type { PageProps } from './props';

const COSTS: Record<Kind, string> = {
  email: '1 credit',
  phone: '1 credit; 5 with HLR',
  ip: '1 credit',
  verify: '3 credits',
};

/** One real call from the browser, charged like the API, with its answer in words and in JSON. */
export function PlaygroundPage({ session }: PageProps) {
  const [kind, setKind] = useState<Kind>('email');
  const [result, setResult] = useState<PlaygroundAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const run = async (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement);
    const text = (name: string) => field(data, name).trim() || undefined;
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(await call(kind, text, data.get('hlr') === 'on'));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const wants = (field: 'email' | 'phone' | 'ip') => kind === field || kind === 'verify';
  return (
    <section class="card" aria-labelledby="try-h">
      <h2 id="try-h">Try a call</h2>
      <p class="hint">
        Runs through the same engines as the API and is charged to this account ({COSTS[kind]}).
      </p>
      <form class="stack" onSubmit={(e) => void run(e)}>
        <label for="pg-kind">Call</label>
        <select id="pg-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind)}>
          <option value="email">Email validation</option>
          <option value="phone">Phone validation</option>
          <option value="ip">IP intelligence</option>
          <option value="verify">Verify (fraud score, explained)</option>
        </select>
        {wants('email') && (
          <>
            <label for="pg-email">Email</label>
            <input
              id="pg-email"
              name="email"
              type="text"
              required={kind === 'email'}
              placeholder="jane@example.com"
            />
          </>
        )}
        {wants('phone') && (
          <>
            <label for="pg-phone">Phone (E.164)</label>
            <input
              id="pg-phone"
              name="phone"
              type="tel"
              required={kind === 'phone'}
              placeholder="+14155552671"
            />
          </>
        )}
        {kind === 'phone' && (
          <>
            <label class="check">
              <input
                type="checkbox"
                name="hlr"
                disabled={!session.hlr_configured}
                aria-describedby={session.hlr_configured ? undefined : 'pg-hlr-note'}
              />{' '}
              Live HLR lookup
            </label>
            {!session.hlr_configured && (
              <p class="hint" id="pg-hlr-note">
                No HLR provider is configured on this server (HLR_PROVIDER), so live lookups are
                off.
              </p>
            )}
          </>
        )}
        {wants('ip') && (
          <>
            <label for="pg-ip">IP address</label>
            <input
              id="pg-ip"
              name="ip"
              type="text"
              required={kind === 'ip'}
              placeholder="8.8.8.8"
            />
          </>
        )}
        <button class="primary" type="submit" disabled={busy}>
          {busy ? 'Running…' : 'Run'}
        </button>
      </form>
      <ErrorNote error={error} />
      {result !== null && <PlaygroundResult answer={result} />}
    </section>
  );
}

/** The call of a kind, with the form's values (verify is always explained: its reasons show). */
async function call(
  kind: Kind,
  text: (name: string) => string | undefined,
  hlr: boolean,
): Promise<PlaygroundAnswer> {
  switch (kind) {
    case 'email':
      return {
        kind,
        result: await api('playgroundEmail', { body: { email: text('email') ?? '' } }),
      };
    case 'phone':
      return {
        kind,
        result: await api('playgroundPhone', { body: { phone: text('phone') ?? '', hlr } }),
      };
    case 'ip':
      return { kind, result: await api('playgroundIp', { body: { ip: text('ip') ?? '' } }) };
    case 'verify':
      return {
        kind,
        result: await api('playgroundVerify', {
          query: { explain: true },
          body: { email: text('email'), phone: text('phone'), ip: text('ip') },
        }),
      };
  }
}
