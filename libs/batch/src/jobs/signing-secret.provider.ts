import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { BATCH_CONFIG, type BatchConfig } from '@verity/config';
import { SettingsRepository } from './settings.repository';

const SETTING_KEY = 'download_signing_secret';

/**
 * The key of download links: SIGNING_SECRET when configured, otherwise one generated on first
 * use and kept in the `settings` table, so every API instance (and a restart) signs and checks
 * with the same key. `INSERT … ON CONFLICT DO NOTHING` makes the first writer win a race.
 */
@Injectable()
export class SigningSecretProvider {
  private cached: Promise<string> | undefined;

  constructor(
    private readonly settings: SettingsRepository,
    @Inject(BATCH_CONFIG) private readonly config: BatchConfig,
  ) {}

  secret(): Promise<string> {
    if (this.config.SIGNING_SECRET) return Promise.resolve(this.config.SIGNING_SECRET);
    this.cached ??= this.loadOrCreate().catch((error: unknown) => {
      this.cached = undefined;
      throw error;
    });
    return this.cached;
  }

  private async loadOrCreate(): Promise<string> {
    await this.settings.insertIfAbsent(SETTING_KEY, randomBytes(32).toString('base64url'));
    return this.settings.valueOf(SETTING_KEY);
  }
}
