import { VerityError } from '@verity/common';
import { forbiddenHostReason } from './address.policy';

const MAX_URL_LENGTH = 2048;

/** How an operator lets webhooks reach their own network, named wherever a target is refused. */
export const ALLOW_PRIVATE_HINT =
  'the server allows such targets only when its operator sets WEBHOOK_ALLOW_PRIVATE=true';

/** The host of a URL without IPv6 brackets (`[::1]` → `::1`). */
export function bareHost(url: URL): string {
  const host = url.hostname;
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * Checks a webhook_url at job creation and returns it parsed; throws 400 validation_error for
 * a URL that is malformed, not http(s), carries credentials, or (unless `allowPrivate`) names
 * a non-public IP literal or a localhost name. Hostnames are resolved and checked again at
 * delivery, where DNS can have changed.
 */
export function validateWebhookUrl(url: string, allowPrivate: boolean): URL {
  const fail = (why: string) => new VerityError('validation_error', `webhook_url ${why}`);
  if (typeof url !== 'string' || url.length === 0) throw fail('must be a non-empty string');
  if (url.length > MAX_URL_LENGTH) throw fail(`must be at most ${MAX_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    // WHATWG parsing also canonicalizes odd IPv4 spellings (0x7f.1, 2130706433 → 127.0.0.1).
    parsed = new URL(url);
  } catch {
    throw fail('is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw fail('must use http or https');
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw fail('must not contain credentials');
  }
  const host = bareHost(parsed);
  if (host === '') throw fail('must have a host');
  if (!allowPrivate) {
    const reason = forbiddenHostReason(host);
    if (reason !== null) throw fail(`must not point to a ${reason} address: ${ALLOW_PRIVATE_HINT}`);
  }
  return parsed;
}
