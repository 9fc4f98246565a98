import { VerityError } from '@verity/common';
import type { KeyMode } from '@verity/contracts';

/**
 * The keys a caller may list and manage: a test key reaches only test keys; a live key and a
 * console session reach every key of the account. Test keys are made to be handed to CI, so a
 * leaked one must not mint, list, rotate or revoke the key that spends the account's credits.
 */
export type KeyReach = 'test' | 'all';

/** What a key of `mode` reaches. */
export function keyReachOf(mode: KeyMode): KeyReach {
  return mode === 'test' ? 'test' : 'all';
}

/** Whether a key of `mode` is within `reach`. */
export function inReach(reach: KeyReach, mode: KeyMode): boolean {
  return reach === 'all' || mode === 'test';
}

/** Throws 403 forbidden when `action` on a key of `mode` is beyond `reach`. */
export function assertInReach(
  reach: KeyReach,
  mode: KeyMode,
  action: 'create' | 'rotate' | 'delete',
): void {
  if (inReach(reach, mode)) return;
  const what =
    action === 'create' ? 'create a live key (send "mode":"test")' : `${action} a live key`;
  throw new VerityError(
    'forbidden',
    `a test key cannot ${what}; test keys manage only test keys, use a live key or the console`,
  );
}
