/** Who is calling: resolved from a valid API key. Every tenant query takes `accountId`. */
export interface Principal {
  accountId: string;
  keyId: string;
  keyName: string;
}
