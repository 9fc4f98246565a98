import type { ApiKey, IssuedApiKey, KeyMode } from '@verity/contracts/wire';
import type { Transport } from './transport';

/** The account's API keys. Values appear only in `create` and `rotate` answers. */
export class KeysResource {
  constructor(private readonly transport: Transport) {}

  /**
   * Active keys of the account (never their values).
   * @example for (const key of await verity.keys.list()) console.log(key.name, key.hint);
   */
  async list(options: { signal?: AbortSignal } = {}): Promise<ApiKey[]> {
    const { data } = await this.transport.json<{ data: ApiKey[] }>({
      method: 'GET',
      url: '/v1/keys',
      idempotent: true,
      signal: options.signal,
    });
    return data;
  }

  /**
   * Creates a key with a friendly name; `key` is its value, shown only this once. `mode: 'test'`
   * makes a `vrt_test_…` key (free, offline, magic inputs); the default is a live key.
   * @example const { id, key } = await verity.keys.create('staging');
   * @example const { key } = await verity.keys.create('ci', { mode: 'test' });
   */
  create(
    name: string,
    options: { mode?: KeyMode; signal?: AbortSignal } = {},
  ): Promise<IssuedApiKey> {
    return this.transport.json<IssuedApiKey>({
      method: 'POST',
      url: '/v1/keys',
      json: options.mode === undefined ? { name } : { name, mode: options.mode },
      idempotent: false,
      signal: options.signal,
    });
  }

  /**
   * Issues a new value for a key; the old value stops working at once.
   * @example const { key } = await verity.keys.rotate(id);
   */
  rotate(id: string, options: { signal?: AbortSignal } = {}): Promise<IssuedApiKey> {
    return this.transport.json<IssuedApiKey>({
      method: 'POST',
      url: `/v1/keys/${encodeURIComponent(id)}/rotate`,
      idempotent: false,
      signal: options.signal,
    });
  }

  /**
   * Revokes a key for good.
   * @example await verity.keys.delete(id);
   */
  async delete(id: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.transport.json<undefined>({
      method: 'DELETE',
      url: `/v1/keys/${encodeURIComponent(id)}`,
      // A repeat after a lost answer is harmless: at worst it reports 404 for a deleted key.
      idempotent: true,
      signal: options.signal,
    });
  }
}
