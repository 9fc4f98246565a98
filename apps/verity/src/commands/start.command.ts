import { resolve } from 'node:path';
import type { Type, DynamicModule } from '@nestjs/common';
import { withListenPort, type AppConfig } from '@verity/config';
import {
  listenOn,
  openProcessRuntime,
  startApp,
  StartGuard,
  StartStopped,
  type ProcessRuntime,
} from '@verity/platform';
import { createApiApp } from '../../../api/src/create-api-app';
import { IngestModule } from '../../../ingest/src/ingest.module';
import { ScorerModule } from '../../../scorer/src/scorer.module';
import { lockDataDir } from '../start/data-dir.lock';
import { devAccess, devAccessBlocks, type DevAccess } from '../start/dev-access';
import { FirstRunMarker } from '../start/first-run.marker';
import { claimPort } from '../start/port.claim';
import { dataListsRow, resolverRows } from '../start/runtime.rows';
import { StartBanner } from '../start/start.banner';

/**
 * `verity start`: the whole service in one process (API, and the batch modules given), on the
 * embedded defaults unless configuration points at real engines. Takes the data directory's
 * lock, checks the port before starting the database, and prints the banner once it listens.
 * A stop at any point of it (SIGINT, SIGTERM) closes what it opened and exits 0.
 */
export async function startCommand(
  configured: AppConfig,
  // The batch pipeline (splitter, assembler, webhooks, scorer) shares the process and its ports.
  modules: (Type | DynamicModule)[] = [IngestModule, ScorerModule],
): Promise<void> {
  const guard = StartGuard.install(configured.SHUTDOWN_TIMEOUT_MS);
  try {
    await start(configured, modules, guard);
  } catch (error) {
    // Once stopped, a step's failure is the stop's doing (Ctrl-C reaches the job's children too).
    if (error instanceof StartStopped || guard.stopped) guard.exitStopped();
    throw error;
  }
}

async function start(
  configured: AppConfig,
  modules: (Type | DynamicModule)[],
  guard: StartGuard,
): Promise<void> {
  const lock = await lockDataDir(configured.VERITY_HOME);
  guard.check();
  const claim = await claimPort(configured.HOST, configured.PORT);
  // PORT=0: the addresses derived from PORT (CONSOLE_URL unless set) use the port claimed.
  const config = withListenPort(configured, claim.port);
  const marker = FirstRunMarker.at(config.VERITY_HOME);
  let access: DevAccess | null = null;
  try {
    guard.check();
    // Never join a database a dead run left behind: this process holds the lock, so it owns it.
    const runtime = await openProcessRuntime(config, 'verity', {
      engines: true,
      joinRunningDatabase: false,
      guard,
    });
    await startApp(
      runtime,
      guard,
      async () => {
        const app = await createApiApp({
          resources: runtime.resources,
          engines: runtime.engines!.engines,
          logger: runtime.logger,
          checks: runtime.checks,
          modules,
        });
        await app.init();
        guard.check();
        access = await devAccess(app, config, marker);
        if (access) runtime.logger.debug({ account_id: access.accountId }, 'dev account ready');
        return app;
      },
      async (app) => {
        await claim.release();
        await listenOn(app, config, 'npm start');
        claim.handOver(app.getHttpServer());
      },
    );
    // A stop that came during the listen is already closing the service: no banner.
    if (guard.stopped) return;
    const base = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${config.PORT}`;
    await lock.publish(base);
    const banner = startBanner(config, runtime, base, access);
    await new Promise<void>((done) => process.stdout.write(banner.render(), () => done()));
    if (access) await marker.clear();
  } catch (error) {
    await claim.release();
    claim.handOver(null);
    throw error;
  }
}

/** The banner's rows and blocks; features with something to show at start add theirs here. */
function startBanner(
  config: AppConfig,
  runtime: ProcessRuntime,
  base: string,
  access: DevAccess | null,
): StartBanner {
  const banner = new StartBanner(`Verity is listening on ${base}`)
    .row('Console', config.CONSOLE_URL)
    .row('API docs', `${base}/v1/docs`)
    .row('Data directory', resolve(config.VERITY_HOME))
    .row('Database', runtime.database.location);
  const engines = runtime.engines!;
  banner.row('Open-data lists', dataListsRow(engines.ipData.dataStatus(), config));
  const dns = resolverRows(engines.resolver(), config);
  banner.row('DNS', dns.row);
  if (dns.block) banner.block(...dns.block);
  if (access) for (const block of devAccessBlocks(access, config, base)) banner.block(...block);
  return banner;
}
