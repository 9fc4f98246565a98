import { createRequire } from 'node:module';
import type { EmailLists } from './email.ports';

/** Raw list contents; every entry is matched case-insensitively. */
export interface EmailListSources {
  /** Exact disposable domains. */
  disposable: Iterable<string>;
  /** Disposable domains whose subdomains are disposable too. */
  disposableWildcard?: Iterable<string>;
  /** Free consumer mail providers. */
  free: Iterable<string>;
  /**
   * Curated mail providers that are real mailboxes (unlike `free`, which also lists
   * typo-squatting domains such as gmial.com): never given a did_you_mean.
   */
  known?: Iterable<string>;
  /** Role local parts (info, support, ...). */
  roles: Iterable<string>;
  /** Operator override: never disposable (the domain and its subdomains). */
  disposableAllow?: Iterable<string>;
  /** Operator addition: always disposable (the domain and its subdomains). */
  disposableDeny?: Iterable<string>;
}

// RFC 2606 / RFC 6761 names that show up in provider lists but are nobody's mailbox.
const RESERVED_DOMAINS = ['example.com', 'example.net', 'example.org'];

function toSet(items: Iterable<string> | undefined): Set<string> {
  const set = new Set<string>();
  for (const item of items ?? []) {
    const v = item.trim().toLowerCase();
    if (v.length > 0) set.add(v);
  }
  return set;
}

/** True when the domain or one of its parent domains is in the set. */
function matchesSuffix(set: ReadonlySet<string>, domain: string): boolean {
  if (set.size === 0) return false;
  let d = domain;
  for (;;) {
    if (set.has(d)) return true;
    const dot = d.indexOf('.');
    if (dot < 0) return false;
    d = d.slice(dot + 1);
  }
}

/**
 * Builds the engine's lists once into Sets. Precedence for `disposable`: operator allow,
 * then operator deny, then the bundled exact and wildcard lists. A disposable domain is
 * never also reported as a free provider (a throwaway inbox is not a consumer mailbox).
 */
export function createEmailLists(sources: EmailListSources): EmailLists {
  const disposable = toSet(sources.disposable);
  const wildcard = toSet(sources.disposableWildcard);
  const allow = toSet(sources.disposableAllow);
  const deny = toSet(sources.disposableDeny);
  const free = toSet(sources.free);
  for (const d of RESERVED_DOMAINS) free.delete(d);
  const roles = toSet(sources.roles);
  const known = toSet(sources.known);

  const isDisposable = (domain: string): boolean => {
    if (matchesSuffix(allow, domain)) return false;
    return disposable.has(domain) || matchesSuffix(deny, domain) || matchesSuffix(wildcard, domain);
  };
  return {
    isDisposable,
    isFreeProvider: (domain) => free.has(domain) && !isDisposable(domain),
    isKnownMailDomain: (domain) => known.has(domain) || isDisposable(domain),
    isRoleAccount: (local) => {
      // Sub-addresses (RFC 5233 "+detail") keep the role: support+billing is support.
      const plus = local.indexOf('+');
      const base = (plus > 0 ? local.slice(0, plus) : local).toLowerCase();
      return roles.has(base);
    },
  };
}

function stringArray(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
    throw new TypeError(`${what} is not a list of strings`);
  }
  return value;
}

/**
 * Loads the lists bundled as npm packages (refreshed by `npm update`), see docs/models/email.md:
 * disposable-email-domains (MIT), email-providers (ISC; all.json for free_provider, the curated
 * common.json as known mail domains), role-based-email-addresses (MIT).
 */
export function loadBundledEmailLists(
  overrides: Pick<EmailListSources, 'disposableAllow' | 'disposableDeny'> = {},
): EmailLists {
  const load = createRequire(__filename);
  return createEmailLists({
    disposable: stringArray(load('disposable-email-domains'), 'disposable-email-domains'),
    disposableWildcard: stringArray(
      load('disposable-email-domains/wildcard.json'),
      'disposable-email-domains/wildcard.json',
    ),
    free: stringArray(load('email-providers/all.json'), 'email-providers/all.json'),
    known: stringArray(load('email-providers/common.json'), 'email-providers/common.json'),
    roles: stringArray(load('role-based-email-addresses'), 'role-based-email-addresses'),
    ...overrides,
  });
}
