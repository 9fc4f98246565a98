import { useEffect, useState } from 'preact/hooks';
import { field } from '../form-field';
import type { ConsoleSessionView } from '@verity/contracts/console';
import { api, setCsrfToken } from '../api';
import { ErrorNote } from '../components/states';
import { navigate, safeNext } from '../router';

/** Sign in with email and password, or with a one-time link (then choose a password). */
export function SignInPage({ onSignedIn }: { onSignedIn: (s: ConsoleSessionView) => void }) {
  const next = safeNext(new URLSearchParams(location.search).get('next'));
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [needsPassword, setNeedsPassword] = useState<ConsoleSessionView | null>(null);

  useEffect(() => {
    const token = new URLSearchParams(location.hash.slice(1)).get('token');
    if (!token) return;
    // The token leaves the address bar at once: not in history, not in a screenshot.
    history.replaceState(null, '', location.pathname + location.search);
    setBusy(true);
    api('redeemLink', { body: { token } })
      .then((s) => {
        setCsrfToken(s.csrf_token);
        if (s.password_set) finish(s);
        else setNeedsPassword(s);
      })
      .catch(setError)
      .finally(() => setBusy(false));
  }, []);

  const finish = (s: ConsoleSessionView) => {
    onSignedIn(s);
    navigate(next);
  };

  const login = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(null);
    try {
      finish(
        await api('login', {
          body: { email: field(form, 'email'), password: field(form, 'password') },
        }),
      );
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const choosePassword = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const password = field(form, 'new-password');
    if (password !== field(form, 'confirm-password')) {
      setError(new Error('the two passwords differ'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      finish(await api('setPassword', { body: { password } }));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <h1>Verity console</h1>
      {needsPassword ? (
        <form onSubmit={(e) => void choosePassword(e)} aria-label="Choose a password">
          <p>
            Signed in as <strong>{needsPassword.email}</strong>. Choose a password for next time (at
            least 10 characters).
          </p>
          <label for="new-password">New password</label>
          <input
            id="new-password"
            name="new-password"
            type="password"
            autoComplete="new-password"
            required
            minLength={10}
          />
          <label for="confirm-password">Repeat the password</label>
          <input
            id="confirm-password"
            name="confirm-password"
            type="password"
            autoComplete="new-password"
            required
            minLength={10}
          />
          <button class="primary" type="submit" disabled={busy}>
            Save password and continue
          </button>
        </form>
      ) : (
        <form onSubmit={(e) => void login(e)} aria-label="Sign in">
          <label for="email">Email</label>
          <input id="email" name="email" type="email" autoComplete="username" required />
          <label for="password">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
          />
          <button class="primary" type="submit" disabled={busy}>
            Sign in
          </button>
          <p class="hint">
            First time? Open the one-time sign-in link printed by <code>npm start</code>, or ask
            your operator for one (<code>node bin/verity.js users create</code>, in the folder
            Verity runs from).
          </p>
        </form>
      )}
      <ErrorNote error={error} />
    </main>
  );
}
