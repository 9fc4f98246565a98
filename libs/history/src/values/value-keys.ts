import { createHmac } from 'node:crypto';
import type { HistoryValue, KeyMode } from '@verity/contracts';
import { isMagicInput, type ParsedIp } from '@verity/validation';
import type { CallValues } from '../store/history-store.port';

/** The values of a verify call as its history reads them; each may be absent. */
export interface CallInputs {
  /** The address as sent. */
  email?: string;
  /** The number as sent and its E.164 form when it parsed. */
  phone?: { input: string; e164: string | null };
  ip?: ParsedIp;
}

/** Whose history a value belongs to: an account's live or test calls, never both. */
export interface HistoryScope {
  accountId: string;
  mode: KeyMode;
}

/** The store's name of a scope. */
export function scopeId(scope: HistoryScope): string {
  return `${scope.accountId}:${scope.mode}`;
}

/** The text of each value that is keyed: one spelling per value (docs/history.md, "Keys"). */
export function valueTexts(inputs: CallInputs): Partial<Record<HistoryValue, string>> {
  const texts: Partial<Record<HistoryValue, string>> = {};
  const email = inputs.email?.trim().toLowerCase();
  if (email) texts.email = email;
  const phone = inputs.phone && (inputs.phone.e164 ?? inputs.phone.input.replace(/[^\d+]/g, ''));
  if (phone) texts.phone = phone;
  const ip = inputs.ip;
  if (ip?.version === 4) {
    texts.ip = `4:${ip.v4}`;
    texts.subnet = `4/24:${ip.v4 >>> 8}`;
  } else if (ip) {
    const [a, b, c, d] = ip.words;
    texts.ip = `6:${a}:${b}:${c}:${d}`;
    texts.subnet = `6/64:${a}:${b}`;
  }
  return texts;
}

/** Leaves out a test key's magic inputs, whose answers must never change (docs/test-mode.md). */
export function recordedInputs(scope: HistoryScope, inputs: CallInputs): CallInputs {
  if (scope.mode === 'live') return inputs;
  return {
    email:
      inputs.email !== undefined && isMagicInput('email', inputs.email) ? undefined : inputs.email,
    phone:
      inputs.phone !== undefined && isMagicInput('phone', inputs.phone.input)
        ? undefined
        : inputs.phone,
    ip: inputs.ip !== undefined && isMagicInput('ip', inputs.ip.text) ? undefined : inputs.ip,
  };
}

/**
 * Names values by an HMAC under the server's history secret, over the scope and the value, so
 * the store never holds a value itself and the same value has unrelated keys in two accounts.
 */
export class ValueKeys {
  constructor(private readonly secret: Buffer) {}

  of(scope: HistoryScope, texts: Partial<Record<HistoryValue, string>>): CallValues {
    const keys: CallValues = {};
    const prefix = `${scopeId(scope)}\n`;
    for (const kind of Object.keys(texts) as HistoryValue[]) {
      keys[kind] = createHmac('sha256', this.secret)
        .update(`${prefix}${kind}\n${texts[kind]}`)
        // 132 bits: collisions within an account are out of reach, keys stay short.
        .digest('base64url')
        .slice(0, 22);
    }
    return keys;
  }
}
