import type { ComponentChildren } from 'preact';
import { ApiError } from '../api';

/** Keeps the layout still while loading: a fixed-height placeholder with a live status. */
export function Loading({ label }: { label: string }) {
  return (
    <div class="placeholder" role="status" aria-live="polite">
      Loading {label}…
    </div>
  );
}

/** The API's own message, in words. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : 'something went wrong';
  const code = error instanceof ApiError ? error.code : null;
  return (
    <p class="error" role="alert">
      <strong>Error{code ? ` (${code})` : ''}:</strong> {message}
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <div class="empty">{children}</div>;
}
