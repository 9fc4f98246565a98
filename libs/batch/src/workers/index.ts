export { createWorkerApp, type WorkerAppOptions } from './create-worker-app';
export { runWorker } from './run-worker';
export { watchLag } from './lag-source';
