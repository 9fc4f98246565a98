export { createWorkerApp, type WorkerAppOptions } from './create-worker-app';
export { runWorker } from './run-worker';
export { startConsumer, type ConsumerOptions } from './consumer';
export { OutageWatch, type OutageWatchOptions } from './outage-watch';
export { BatchOutages } from './batch-outages';
export { WorkerService } from './worker.service';
