import 'reflect-metadata';
import { closeOnSignal, listenOn, openProcessRuntime, runMain } from '@verity/platform';
import { createApiApp } from './create-api-app';

/** The API deployable on its own (distributed mode): `node dist/apps/api/src/main.js`. */
runMain('verity-api', async (config) => {
  const runtime = await openProcessRuntime(config, 'verity-api', { engines: true });
  const app = await createApiApp({
    resources: runtime.resources,
    engines: runtime.engines!.engines,
    logger: runtime.logger,
    checks: runtime.checks,
  });
  await listenOn(app, config);
  runtime.logger.info({ port: config.PORT, host: config.HOST }, 'api listening');
  closeOnSignal(runtime, app);
});
