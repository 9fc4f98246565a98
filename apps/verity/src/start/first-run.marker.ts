import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * `<VERITY_HOME>/first-run.json`: the dev account whose API key and sign-in link no banner has
 * shown yet. Written when a start creates (or reissues) them and removed once a banner showing
 * them is out, so a start that stopped in between (a signal, a crash, a hung terminal) is
 * followed by one that shows a fresh key and link instead of losing them for good.
 */
export class FirstRunMarker {
  private constructor(private readonly path: string) {}

  static at(home: string): FirstRunMarker {
    return new FirstRunMarker(join(resolve(home), 'first-run.json'));
  }

  /** The account still waiting for its banner, or null. */
  async pending(): Promise<string | null> {
    const text = await readFile(this.path, 'utf8').catch(() => null);
    if (text === null) return null;
    try {
      const { account_id: accountId } = JSON.parse(text) as { account_id?: unknown };
      return typeof accountId === 'string' ? accountId : null;
    } catch {
      return null; // torn by a crash mid-write: the account's creation had not committed
    }
  }

  async set(accountId: string): Promise<void> {
    await writeFile(this.path, JSON.stringify({ account_id: accountId }) + '\n', { mode: 0o600 });
  }

  async clear(): Promise<void> {
    await rm(this.path, { force: true });
  }
}
