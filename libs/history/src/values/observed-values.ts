import type { HistoryValue } from '@verity/contracts';
import type { CallValues, ObservedValue } from '../store/history-store.port';

/**
 * What the store records of a call's values: each value, whether it keeps who used it, and who
 * did. An IP or /24 links the email, or the phone for a call without one; a phone links the
 * email. The one rule for live calls (VerifyHistory) and the replay at boot (HistoryUpkeep).
 */
export function observedValues(values: CallValues): {
  kinds: HistoryValue[];
  observed: ObservedValue[];
} {
  const member = values.email ?? values.phone ?? null;
  const kinds: HistoryValue[] = [];
  const observed: ObservedValue[] = [];
  const add = (kind: HistoryValue, linked: boolean, linkedMember: string | null) => {
    const key = values[kind];
    if (key === undefined) return;
    kinds.push(kind);
    observed.push({ key, linked, member: linkedMember });
  };
  add('email', false, null);
  add('phone', true, values.email ?? null);
  add('ip', true, member);
  add('subnet', true, member);
  return { kinds, observed };
}
