import { useEffect, useState } from 'preact/hooks';
import { BASE } from './api';

/** The page path below /console ("/" for the overview). */
export function currentPath(): string {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '/';
  return path === '' ? '/' : path;
}

export function navigate(to: string): void {
  history.pushState(null, '', to.startsWith(BASE) ? to : BASE + to);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** Re-renders on navigation (links, back/forward). */
export function usePath(): string {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    const onPop = () => setPath(currentPath());
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  return path;
}

/** A page to return to after sign-in: only a path of this console, never another site. */
export function safeNext(raw: string | null): string {
  return raw && raw.startsWith(BASE + '/') && !raw.startsWith('//') && !raw.includes('/sign-in')
    ? raw
    : BASE + '/';
}
