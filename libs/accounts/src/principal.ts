import type { KeyMode } from '@verity/contracts';

/** Who is calling: resolved from a valid API key. Every tenant query takes `accountId`. */
export interface Principal {
  accountId: string;
  keyId: string;
  keyName: string;
  /** The key's mode: a `test` principal is never charged and never reaches the network. */
  mode: KeyMode;
}
