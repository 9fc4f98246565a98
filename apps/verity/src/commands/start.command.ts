import type { Type, DynamicModule } from '@nestjs/common';
import { AccountsService } from '@verity/accounts';
import type { AppConfig } from '@verity/config';
import { closeOnSignal, openProcessRuntime } from '@verity/platform';
import { createApiApp } from '../../../api/src/create-api-app';
import { IngestModule } from '../../../ingest/src/ingest.module';
import { ScorerModule } from '../../../scorer/src/scorer.module';

/**
 * `verity start`: the whole service in one process (API, and the batch modules given), on the
 * embedded defaults unless configuration points at real engines. Prints where it listens and,
 * on the first start, the dev account's API key.
 */
export async function startCommand(
  config: AppConfig,
  // The batch pipeline (splitter, assembler, webhooks, scorer) shares the process and its ports.
  modules: (Type | DynamicModule)[] = [IngestModule, ScorerModule],
): Promise<void> {
  const runtime = await openProcessRuntime(config, 'verity', { engines: true });
  const { database } = runtime;
  const app = await createApiApp({
    resources: runtime.resources,
    engines: runtime.engines!.engines,
    logger: runtime.logger,
    checks: runtime.checks,
    modules,
  });
  await app.init();
  const devKey = await ensureDevAccount(app.get(AccountsService), config.DEV_ACCOUNT_CREDITS);
  await app.listen({ port: config.PORT, host: config.HOST });
  closeOnSignal(runtime, app);

  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const base = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
  const lines = [
    '',
    `  Verity is listening on ${base}`,
    `  Database: ${database.embedded ? `embedded PostgreSQL in ${config.VERITY_HOME}` : 'DATABASE_URL'}`,
    `  API docs: ${base}/v1/docs`,
  ];
  if (devKey) {
    lines.push(
      '',
      `  A dev account was created with ${config.DEV_ACCOUNT_CREDITS} credits. Its API key (shown only this once):`,
      '',
      `    ${devKey}`,
      '',
      `  Try: curl -s -H "X-Api-Key: ${devKey}" ${base}/v1/ping`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n\n');
}

/** Creates the dev account on a database without accounts; returns its key value, else null. */
async function ensureDevAccount(
  accounts: AccountsService,
  credits: number,
): Promise<string | null> {
  if ((await accounts.count()) > 0) return null;
  const created = await accounts.create('dev', credits);
  return created.api_key;
}
