import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AccountsModule } from '@verity/accounts';
import type { AppConfig } from '@verity/config';
import { CoreModule, createLogger, openDatabaseRuntime, PinoNestLogger } from '@verity/platform';

/**
 * Runs `work` with the accounts services on the configured database (embedded or
 * `DATABASE_URL`), then closes both: the one way a shell command reaches accounts and users.
 * Info-level chatter is lowered to warn so the command's own output stays readable.
 */
export async function withAccountsContext<T>(
  config: AppConfig,
  work: (ctx: INestApplicationContext) => Promise<T>,
): Promise<T> {
  const logger = createLogger(
    { LOG_LEVEL: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL },
    'verity-cli',
  );
  const database = await openDatabaseRuntime(config, logger);
  try {
    @Module({
      imports: [
        CoreModule.forRoot({ config, dataSource: database.dataSource, metrics: null }),
        AccountsModule,
      ],
    })
    class CliModule {}
    const ctx = await NestFactory.createApplicationContext(CliModule, {
      logger: new PinoNestLogger(logger),
    });
    try {
      return await work(ctx);
    } finally {
      await ctx.close();
    }
  } finally {
    await database.close();
  }
}
