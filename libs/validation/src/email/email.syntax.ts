import { idnHostname } from 'idn-hostname';

/** A mailbox that passed the syntax policy, with its domain in ASCII (punycode) lower case. */
export interface ParsedEmail {
  /**
   * Local part as given, in Unicode NFC (RFC 6532 §3.1); case is kept, it is significant to
   * the receiving host (RFC 5321 §2.4).
   */
  local: string;
  /** Domain as an A-label string, lower case, no trailing dot. */
  domain: string;
  /** True when the local part is an RFC 5321 Quoted-string. */
  quoted: boolean;
}

// RFC 5321 §4.5.3.1: local part ≤ 64 octets, domain ≤ 255 octets, and the path
// "<local@domain>" ≤ 256 octets, i.e. the address itself ≤ 254 octets.
const MAX_LOCAL_OCTETS = 64;
const MAX_DOMAIN_OCTETS = 255;
const MAX_ADDRESS_OCTETS = 254;
const MAX_LABEL_OCTETS = 63;
/** Longer inputs cannot be valid even in UTF-8 (4 octets per code unit pair at most). */
const MAX_INPUT_CHARS = 1024;

// atext of RFC 5322 §3.2.3 (what RFC 5321's Atom uses): ALPHA / DIGIT and these 20 symbols.
const ATEXT = new Uint8Array(128);
for (let c = 0x30; c <= 0x39; c++) ATEXT[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) ATEXT[c] = 1;
for (let c = 0x61; c <= 0x7a; c++) ATEXT[c] = 1;
for (const ch of "!#$%&'*+-/=?^_`{|}~") ATEXT[ch.charCodeAt(0)] = 1;

/**
 * RFC 6531 §3.3 extends atext and qtextSMTP with UTF8-non-ascii. We accept any non-ASCII
 * code point except C1 controls (U+0080..U+009F) and lone surrogates (not encodable in UTF-8).
 */
function isAllowedNonAscii(s: string, i: number, c: number): boolean {
  if (c <= 0x9f) return false;
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = s.charCodeAt(i + 1);
    return next >= 0xdc00 && next <= 0xdfff;
  }
  if (c >= 0xdc00 && c <= 0xdfff) {
    const prev = s.charCodeAt(i - 1);
    return prev >= 0xd800 && prev <= 0xdbff;
  }
  return true;
}

/** Dot-string = Atom *("." Atom) (RFC 5321 §4.1.2), with RFC 6531 UTF-8. Returns octet length or -1. */
function checkDotString(local: string): number {
  const n = local.length;
  if (n === 0) return -1;
  let ascii = true;
  let prevDot = true; // a leading dot is an empty first atom
  for (let i = 0; i < n; i++) {
    const c = local.charCodeAt(i);
    if (c === 0x2e) {
      if (prevDot) return -1;
      prevDot = true;
      continue;
    }
    prevDot = false;
    if (c < 0x80) {
      if (ATEXT[c] !== 1) return -1;
    } else if (isAllowedNonAscii(local, i, c)) {
      ascii = false;
    } else return -1;
  }
  if (prevDot) return -1;
  return ascii ? n : Buffer.byteLength(local, 'utf8');
}

/**
 * Quoted-string = DQUOTE *QcontentSMTP DQUOTE (RFC 5321 §4.1.2): qtextSMTP is %d32-33 /
 * %d35-91 / %d93-126 (plus UTF-8 per RFC 6531), quoted-pairSMTP is "\" followed by %d32-126.
 * The whole local part must be the quoted string (mixing quoted and atoms is obsolete syntax).
 */
function checkQuotedString(local: string): number {
  const n = local.length;
  if (n < 2 || local.charCodeAt(n - 1) !== 0x22) return -1;
  let ascii = true;
  for (let i = 1; i < n - 1; i++) {
    const c = local.charCodeAt(i);
    if (c === 0x5c) {
      const q = local.charCodeAt(++i);
      if (i >= n - 1 || q < 32 || q > 126) return -1;
    } else if (c === 0x22) {
      return -1;
    } else if (c < 0x80) {
      if (c < 32 || c > 126) return -1;
    } else if (isAllowedNonAscii(local, i, c)) {
      ascii = false;
    } else return -1;
  }
  return ascii ? n : Buffer.byteLength(local, 'utf8');
}

/**
 * Checks an ASCII domain as an RFC 1035 §2.3.1 hostname ("LDH" labels), as RFC 5321 §4.1.2
 * requires: labels of 1..63 letters, digits or hyphens, no hyphen at either end. The
 * top-level label may not be all-numeric (RFC 3696 §2), which also rules out dotted IPv4.
 */
function checkLdhDomain(domain: string): boolean {
  const n = domain.length;
  if (n === 0 || n > MAX_DOMAIN_OCTETS) return false;
  let labelStart = 0;
  let allDigits = true;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? domain.charCodeAt(i) : 0x2e;
    if (c === 0x2e) {
      const len = i - labelStart;
      if (len === 0 || len > MAX_LABEL_OCTETS) return false;
      if (domain.charCodeAt(labelStart) === 0x2d || domain.charCodeAt(i - 1) === 0x2d) return false;
      if (i === n && allDigits) return false;
      labelStart = i + 1;
      allDigits = true;
      continue;
    }
    if (c >= 0x30 && c <= 0x39) continue;
    allDigits = false;
    if ((c >= 0x61 && c <= 0x7a) || c === 0x2d) continue;
    return false;
  }
  return true;
}

// Code points no mailbox name uses and that hide spoofing (docs/models/email.md, "Local part
// characters"): Unicode whitespace, controls, format and bidi controls, private use,
// unassigned code points and noncharacters (both General_Category Cn), lone surrogates.
const HIDDEN_NON_ASCII = /(?=\P{ASCII})[\p{White_Space}\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}]/u;
// A combining mark at the start of an atom would attach to the "@", the quote or the dot.
const LEADING_MARK = /(?:^"?|\.)\p{M}/u;

/**
 * Turns the domain as typed into a lower-case A-label domain, or null. Non-ASCII domains and
 * `xn--` labels go through IDNA2008 (RFC 5890–5893) with UTS-46 non-transitional mapping
 * (`idn-hostname`), which refuses what IDNA2008 disallows (symbols such as ©, emoji) where
 * node's URL mapping would accept anything it can map; ASCII domains keep a fast path.
 * Characters that are never part of a hostname ('%', '/', '\\', '_', ...) are refused first.
 */
function toAsciiDomain(raw: string): string | null {
  const n = raw.length;
  if (n === 0) return null;
  let ascii = true;
  let upper = false;
  for (let i = 0; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 0x80) {
      if (!isAllowedNonAscii(raw, i, c)) return null;
      ascii = false;
    } else if (c >= 0x41 && c <= 0x5a) {
      upper = true;
    } else if (!(
      (c >= 0x61 && c <= 0x7a) ||
      (c >= 0x30 && c <= 0x39) ||
      c === 0x2d ||
      c === 0x2e
    )) {
      return null;
    }
  }
  // UTS-46 silently drops or maps some of these (U+200B, U+00AD, NBSP): refuse them as typed,
  // or the address checked is not the one the user sees.
  if (!ascii && HIDDEN_NON_ASCII.test(raw)) return null;
  let domain = upper && ascii ? raw.toLowerCase() : raw;
  if (!ascii || domain.includes('xn--')) {
    try {
      domain = idnHostname(domain);
    } catch {
      return null;
    }
  }
  return checkLdhDomain(domain) ? domain : null;
}

/** True when a non-ASCII local part holds a character the policy refuses. */
function hasHiddenCharacter(local: string): boolean {
  return HIDDEN_NON_ASCII.test(local) || LEADING_MARK.test(local);
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

/**
 * Parses a mailbox under Verity's syntax policy (docs/models/email.md): RFC 5321 Mailbox with
 * a dot-string or quoted-string local part (RFC 6531 UTF-8 allowed), a hostname domain
 * (IDNs via IDNA2008 with UTS-46 mapping); no comments or folding whitespace; address literals are refused.
 */
export function parseEmail(input: string): ParsedEmail | null {
  if (input.length < 3 || input.length > MAX_INPUT_CHARS) return null;
  // The domain cannot contain "@", so the last one separates even a quoted local part.
  const at = input.lastIndexOf('@');
  if (at <= 0 || at === input.length - 1) return null;
  // NFC first: lengths are those of the form that travels (RFC 6532 §3.1), so an address
  // that fits as typed but not once composed is too long.
  const typed = input.slice(0, at);
  const ascii = isAscii(typed);
  const local = ascii ? typed : typed.normalize('NFC');
  if (!ascii && hasHiddenCharacter(local)) return null;
  const quoted = local.charCodeAt(0) === 0x22;
  const localOctets = quoted ? checkQuotedString(local) : checkDotString(local);
  if (localOctets < 0 || localOctets > MAX_LOCAL_OCTETS) return null;
  // "[" starts an address literal (RFC 5321 §4.1.3), refused by policy: it skips DNS, so
  // no mail host can be checked, and probing it would aim Verity at any IP (docs).
  const domain = toAsciiDomain(input.slice(at + 1));
  if (domain === null) return null;
  if (localOctets + 1 + domain.length > MAX_ADDRESS_OCTETS) return null;
  return { local, domain, quoted };
}
