import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@verity/config';
import { SettingEntity } from '@verity/database';

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
    private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
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
    const settings = this.db.getRepository(SettingEntity);
    await settings
      .createQueryBuilder()
      .insert()
      .values({ key: SETTING_KEY, value: randomBytes(32).toString('base64url') })
      .orIgnore()
      .execute();
    return (await settings.findOneByOrFail({ key: SETTING_KEY })).value;
  }
}
