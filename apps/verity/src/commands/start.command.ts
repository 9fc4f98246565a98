import { resolve } from 'node:path';
import type { Type, DynamicModule } from '@nestjs/common';
import { AccountsService, type CreatedAccount } from '@verity/accounts';
import { withListenPort, type AppConfig } from '@verity/config';
import { closeOnSignal, listenOn, openProcessRuntime, type ProcessRuntime } from '@verity/platform';
import { createApiApp } from '../../../api/src/create-api-app';
import { IngestModule } from '../../../ingest/src/ingest.module';
import { ScorerModule } from '../../../scorer/src/scorer.module';
import { lockDataDir } from '../start/data-dir.lock';
import { StartBanner } from '../start/start.banner';
import { consoleSignIn, type ConsoleSignIn } from './console-banner';
import { claimPort } from '../start/port.claim';

type ApiApp = Awaited<ReturnType<typeof createApiApp>>;

/**
 * `verity start`: the whole service in one process (API, and the batch modules given), on the
 * embedded defaults unless configuration points at real engines. Takes the data directory's
 * lock, checks the port before starting the database, and prints the banner once it listens.
 */
export async function startCommand(
  configured: AppConfig,
  // The batch pipeline (splitter, assembler, webhooks, scorer) shares the process and its ports.
  modules: (Type | DynamicModule)[] = [IngestModule, ScorerModule],
): Promise<void> {
  const lock = await lockDataDir(configured.VERITY_HOME);
  const claim = await claimPort(configured.HOST, configured.PORT);
  // PORT=0: the addresses derived from PORT (CONSOLE_URL unless set) use the port claimed.
  const config = withListenPort(configured, claim.port);
  // Never join a database a dead run left behind: this process holds the lock, so it owns it.
  const runtime = await openProcessRuntime(config, 'verity', {
    engines: true,
    joinRunningDatabase: false,
  });
  let app: ApiApp | undefined;
  try {
    app = await createApiApp({
      resources: runtime.resources,
      engines: runtime.engines!.engines,
      logger: runtime.logger,
      checks: runtime.checks,
      modules,
    });
    await app.init();
    const dev = await ensureDevAccount(app.get(AccountsService), config.DEV_ACCOUNT_CREDITS);
    const signIn = await consoleSignIn(app, config, dev?.account_id ?? null);
    await claim.release();
    await listenOn(app, config, 'npm start');
    claim.handOver(app.getHttpServer());
    closeOnSignal(runtime, app);

    const base = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${config.PORT}`;
    await lock.publish(base);
    process.stdout.write(startBanner(config, runtime, base, dev?.api_key ?? null, signIn).render());
  } catch (error) {
    await claim.release();
    claim.handOver(null);
    await closeAfterFailedStart(runtime, app);
    throw error;
  }
}

/** The banner's rows and blocks; features with something to show at start add theirs here. */
function startBanner(
  config: AppConfig,
  runtime: ProcessRuntime,
  base: string,
  devKey: string | null,
  signIn: ConsoleSignIn,
): StartBanner {
  const banner = new StartBanner(`Verity is listening on ${base}`)
    .row('Console', signIn.url)
    .row('API docs', `${base}/v1/docs`)
    .row('Data directory', resolve(config.VERITY_HOME))
    .row('Database', runtime.database.location);
  if (devKey) {
    banner.block(
      `A dev account was created with ${config.DEV_ACCOUNT_CREDITS} credits. Its API key (shown only this once):`,
      '',
      `  ${devKey}`,
      '',
      `Try: curl -s -H "X-Api-Key: ${devKey}" ${base}/v1/ping`,
    );
  }
  if (signIn.block) banner.block(...signIn.block);
  return banner;
}

/** Releases what a start that failed half-way opened (the embedded database above all). */
async function closeAfterFailedStart(runtime: ProcessRuntime, app: ApiApp | undefined) {
  const steps = [
    () => app?.close(),
    () => runtime.engines?.close(),
    () => runtime.database.close(),
  ];
  for (const step of steps) {
    await Promise.resolve()
      .then(step)
      .catch((error: unknown) =>
        runtime.logger.debug({ err: error }, 'closing after a failed start'),
      );
  }
}

/** Creates the dev account on a database without accounts; returns it, else null. */
async function ensureDevAccount(
  accounts: AccountsService,
  credits: number,
): Promise<CreatedAccount | null> {
  if ((await accounts.count()) > 0) return null;
  return accounts.create('dev', credits);
}
