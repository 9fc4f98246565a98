import type { ComponentChildren } from 'preact';
import { errorSentence } from '../error-sentence';

/** Keeps the layout still while loading: a fixed-height placeholder with a live status. */
export function Loading({ label }: { label: string }) {
  return (
    <div class="placeholder" role="status" aria-live="polite">
      Loading {label}…
    </div>
  );
}

/** What went wrong, in one sentence (errorSentence). */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {errorSentence(error)}
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <div class="empty">{children}</div>;
}
