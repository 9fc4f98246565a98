import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ConsoleSessionView } from '@verity/contracts/console';
import { api, ApiError, BASE, setCsrfToken } from './api';
import { navigate, usePath } from './router';
import { AccountPage } from './pages/account';
import { BatchPage } from './pages/batch';
import { BillingPage } from './pages/billing';
import { KeysPage } from './pages/keys';
import { OutcomesPage } from './pages/outcomes';
import { OverviewPage } from './pages/overview';
import { PlaygroundPage } from './pages/playground';
import { SignInPage } from './pages/sign-in';
import { WebhooksPage } from './pages/webhooks';
import type { PageProps } from './pages/props';
import { Loading } from './components/states';
import { PAGES, type PagePath } from './page-table';

/** The component of each page of the page table. */
const VIEWS: Record<PagePath, FunctionComponent<PageProps>> = {
  '/': OverviewPage,
  '/keys': KeysPage,
  '/batch': BatchPage,
  '/billing': BillingPage,
  '/webhooks': WebhooksPage,
  '/playground': PlaygroundPage,
  '/outcomes': OutcomesPage,
  '/account': AccountPage,
};

export function App() {
  const path = usePath();
  const [session, setSession] = useState<ConsoleSessionView | null | undefined>(undefined);
  const page = PAGES.find((p) => p.path === path);
  const Page = page && VIEWS[page.path];
  useTitle(path === '/sign-in' ? 'Sign in' : (page?.title ?? 'Not found'));

  useEffect(() => {
    if (path === '/sign-in') return;
    if (session) return;
    api('session')
      .then((s) => {
        setCsrfToken(s.csrf_token);
        setSession(s);
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 401) {
          // Keep the deep link through the sign-in redirect.
          navigate(`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`);
        } else setSession(null);
      });
  }, [path, session]);

  if (path === '/sign-in')
    return (
      <SignInPage
        onSignedIn={(s) => {
          setCsrfToken(s.csrf_token);
          setSession(s);
        }}
      />
    );
  if (session === undefined) return <Loading label="the console" />;
  if (session === null)
    return (
      <p class="error" role="alert">
        The console cannot reach the server. Reload the page to try again.
      </p>
    );

  const signOut = async () => {
    await api('logout').catch(() => undefined);
    setSession(undefined);
    navigate('/sign-in');
  };
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Verity</span>
        <span class="who">
          {session.account_name} · {session.email}
        </span>
        <a class="docs-link" href="/v1/docs" target="_blank" rel="noopener">
          API docs
        </a>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <nav aria-label="Console">
        <ul>
          {PAGES.map((p) => (
            <li key={p.path}>
              <a
                href={BASE + p.path}
                aria-current={p.path === path ? 'page' : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  navigate(p.path);
                }}
              >
                {p.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <h1>{page?.title ?? 'Page not found'}</h1>
        {Page ? (
          <Page session={session} onSession={setSession} />
        ) : (
          <p>
            There is no page at this address. <a href={BASE + '/'}>Go to the overview</a>.
          </p>
        )}
      </main>
    </div>
  );
}

function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Verity console`;
  }, [title]);
}
