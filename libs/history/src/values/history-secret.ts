import { randomBytes } from 'node:crypto';
import type { HistoryConfig } from '@verity/config';
import type { SettingsRepository } from '@verity/batch';

const SETTING_KEY = 'history_hmac_secret';

/**
 * The key of the values' HMAC: HISTORY_SECRET when configured, otherwise one generated on first
 * use and kept in the settings table, so every API instance and a restart key alike (the first
 * writer wins a race).
 */
export async function historySecret(
  config: HistoryConfig,
  settings: SettingsRepository,
): Promise<Buffer> {
  if (config.HISTORY_SECRET) return Buffer.from(config.HISTORY_SECRET, 'utf8');
  await settings.insertIfAbsent(SETTING_KEY, randomBytes(32).toString('base64url'));
  return Buffer.from(await settings.valueOf(SETTING_KEY), 'base64url');
}
