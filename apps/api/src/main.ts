import 'reflect-metadata';
import { listenOn, openProcessRuntime, runMain, startApp } from '@verity/platform';
import { createApiApp } from './create-api-app';

/** The API deployable on its own (distributed mode): `node dist/apps/api/src/main.js`. */
runMain('verity-api', async (config, guard) => {
  const runtime = await openProcessRuntime(config, 'verity-api', { engines: true, guard });
  await startApp(
    runtime,
    guard,
    () =>
      createApiApp({
        resources: runtime.resources,
        engines: runtime.engines!.engines,
        logger: runtime.logger,
        checks: runtime.checks,
      }),
    (app) => listenOn(app, config),
  );
  runtime.logger.info({ port: config.PORT, host: config.HOST }, 'api listening');
});
