import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SettingEntity } from '@verity/database';

/** The settings table: service-wide values shared by every instance, by key. */
@Injectable()
export class SettingsRepository {
  constructor(private readonly db: DataSource) {}

  private settings() {
    return this.db.getRepository(SettingEntity);
  }

  /** Stores `value` under `key` unless a value is there already (the first writer wins). */
  async insertIfAbsent(key: string, value: string): Promise<void> {
    await this.settings().createQueryBuilder().insert().values({ key, value }).orIgnore().execute();
  }

  /** The value stored under `key`; throws when there is none. */
  async valueOf(key: string): Promise<string> {
    return (await this.settings().findOneByOrFail({ key })).value;
  }
}
