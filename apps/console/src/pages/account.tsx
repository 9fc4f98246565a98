import { useState } from 'preact/hooks';
import { field } from '../form-field';
import { api } from '../api';
import { ConfirmButton } from '../components/confirm';
import { ErrorNote } from '../components/states';
import { navigate } from '../router';
import type { PageProps } from './props';

export function AccountPage({ session, onSession }: PageProps) {
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const change = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    setError(null);
    setSaved(false);
    try {
      onSession(
        await api('setPassword', {
          body: {
            password: field(data, 'new-password'),
            current_password: field(data, 'current-password'),
          },
        }),
      );
      form.reset();
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <>
      <section class="card" aria-labelledby="who-h">
        <h2 id="who-h">Signed in</h2>
        <dl>
          <dt>Email</dt>
          <dd>{session.email}</dd>
          <dt>Account</dt>
          <dd>
            {session.account_name} (<code>{session.account_id}</code>)
          </dd>
        </dl>
      </section>
      <section class="card" aria-labelledby="password-h">
        <h2 id="password-h">{session.password_set ? 'Change password' : 'Set a password'}</h2>
        <form class="stack" onSubmit={(e) => void change(e)}>
          {session.password_set && (
            <>
              <label for="current-password">Current password</label>
              <input
                id="current-password"
                name="current-password"
                type="password"
                autoComplete="current-password"
                required
              />
            </>
          )}
          <label for="new-password">New password (10 characters or more)</label>
          <input
            id="new-password"
            name="new-password"
            type="password"
            autoComplete="new-password"
            required
            minLength={10}
          />
          <button class="primary" type="submit">
            Save password
          </button>
        </form>
        {saved && <p role="status">Password saved.</p>}
        <ErrorNote error={error} />
      </section>
      <section class="card" aria-labelledby="everywhere-h">
        <h2 id="everywhere-h">Sessions</h2>
        <p>Signs out every browser signed in as {session.email}, this one included.</p>
        <ConfirmButton
          danger
          label="Sign out everywhere"
          question={`Sign out every session of ${session.email}?`}
          confirmLabel="Sign out everywhere"
          onConfirm={() =>
            void api('logoutEverywhere')
              .then(() => {
                onSession(undefined);
                navigate('/sign-in');
              })
              .catch(setError)
          }
        />
      </section>
    </>
  );
}
