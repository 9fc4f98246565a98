import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { KEY_REVOCATION_CHANNEL } from './api-key.repository';
import { ApiKeysService } from './api-keys.service';
import {
  CREDIT_LEASE_CHANNEL,
  CreditLeases,
  type LeaseNotice,
} from './leases/credit-leases.service';

/**
 * One PostgreSQL connection listening for what other instances on the database tell this one:
 * rotated and deleted keys (dropped from the cache as soon as the change commits) and credit
 * lease requests (give credits back, credits given back).
 */
@Injectable()
export class NotificationListener implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(NotificationListener.name);
  private client: Client | null = null;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  /** When the connection was lost (null while listening): one log line when lost, one when back. */
  private lostAt: number | null = null;

  constructor(
    private readonly db: DataSource,
    private readonly keys: ApiKeysService,
    private readonly leases: CreditLeases,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: (this.db.options as PostgresConnectionOptions).url,
    });
    client.on('notification', (msg) => {
      if (!msg.payload) return;
      if (msg.channel === KEY_REVOCATION_CHANNEL) this.keys.evictCached(msg.payload);
      else if (msg.channel === CREDIT_LEASE_CHANNEL)
        this.leases.onNotice(JSON.parse(msg.payload) as LeaseNotice);
    });
    client.on('error', (error) => {
      if (this.lostAt === null) {
        this.lostAt = Date.now();
        this.logger.warn(
          `notification listener lost its connection (keys read through until it is back): ${error.message}`,
        );
      }
      this.reconnectLater();
    });
    await client.connect();
    await client.query(`LISTEN ${KEY_REVOCATION_CHANNEL}; LISTEN ${CREDIT_LEASE_CHANNEL}`);
    // Anything revoked while we were not listening is unknown: start from an empty cache.
    this.keys.setCaching(true);
    this.client = client;
    if (this.lostAt !== null) {
      this.logger.log(
        `notification listener reconnected after ${((Date.now() - this.lostAt) / 1000).toFixed(1)} s`,
      );
      this.lostAt = null;
    }
  }

  private reconnectLater(): void {
    if (this.stopped || this.retryTimer) return;
    // Without notifications a cached key could outlive its revocation: read through until back.
    this.keys.setCaching(false);
    const old = this.client;
    this.client = null;
    void old?.end().catch(() => undefined);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect().catch((error: unknown) => {
        this.logger.debug(`notification listener reconnect failed: ${String(error)}`);
        this.reconnectLater();
      });
    }, 1000);
  }
}
