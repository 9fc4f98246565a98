// Forms people paste that the parser does not read as typed (docs/models/phone.md, "Input
// forms"): compatibility characters and vanity letters.

/**
 * NFKC: full-width digits and plus sign (`＋４４…`, from East Asian input methods), other
 * compatibility digits and spaces become their ASCII forms; nothing else a number uses changes.
 */
export function normaliseCompatibilityForms(text: string): string {
  // Plain ASCII (nearly every input) is already in NFKC: skip the normaliser.
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x80) return text.normalize('NFKC');
  }
  return text;
}

// ITU E.161 keypad, as Google's libphonenumber maps alpha numbers.
const KEYPAD: Readonly<Record<string, string>> = {
  a: '2', b: '2', c: '2', d: '3', e: '3', f: '3', g: '4', h: '4', i: '4', j: '5', k: '5',
  l: '5', m: '6', n: '6', o: '6', p: '7', q: '7', r: '7', s: '7', t: '8', u: '8', v: '8',
  w: '9', x: '9', y: '9', z: '9',
}; // prettier-ignore

/** Digits, letters, spaces and number punctuation only. */
const VANITY = /^[0-9A-Za-z+\-()./\s]*$/;

/** Google's VALID_ALPHA_PHONE_PATTERN: three letters or more make a possible vanity number. */
function hasThreeLetters(text: string): boolean {
  let letters = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i) | 0x20;
    if (c >= 0x61 && c <= 0x7a && ++letters === 3) return true;
  }
  return false;
}

/**
 * `1-800-FLOWERS` → `1-800-3569377`, or null when the text is not a vanity number candidate
 * (fewer than three letters, or anything but digits, letters, spaces and number punctuation).
 * The caller keeps the converted form only if it parses as a valid number.
 */
export function vanityToDigits(text: string): string | null {
  if (!hasThreeLetters(text) || !VANITY.test(text)) return null;
  return text.replace(/[A-Za-z]/g, (ch) => KEYPAD[ch.toLowerCase()]);
}
