import { ApiError } from './api';

// What the console says for a code whose server message is not meant for a person.
const BY_CODE: Partial<Record<string, string>> = {
  internal_error: 'Something went wrong on the server. Try again; if it persists, see its log.',
  request_timeout: 'The server waited too long for the request. Try again.',
  headers_too_large: 'The request was too large for the server. Sign out and in again.',
};

/** An error as one sentence for the page: the server's message, or words for its code. */
export function errorSentence(error: unknown): string {
  if (error instanceof ApiError) return BY_CODE[error.code] ?? sentence(error.message);
  // fetch rejects with a TypeError when the server cannot be reached at all.
  if (error instanceof TypeError) return 'The console cannot reach the server. Try again.';
  if (error instanceof Error) return sentence(error.message);
  return 'Something went wrong. Try again.';
}

// Capitalised, ending with a full stop.
function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return 'Something went wrong. Try again.';
  const first = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}
