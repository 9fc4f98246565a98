export * from './batch-names';
export * from './batch-messages';
export { encodeChunk, encodedChunkLength, type ChunkLayout } from './chunk-message.writer';
export { JsonPairsCollector, JsonRows, JsonRowsCollector } from './json-rows';
export type { BatchJobRecord } from './batch-job.record';
export { BatchJobRepository, type ChunkCompletion } from './batch-job.repository';
export { BatchAssemblyRepository, type AssemblyAttempt } from './batch-assembly.repository';
export { BatchProgressRepository, type ChunkProgress } from './batch-progress.repository';
export { BatchJobHousekeeping } from './batch-job-housekeeping.repository';
export { BatchJobsService } from './batch-jobs.service';
export { BatchJobsModule } from './batch-jobs.module';
export { SigningSecretProvider } from './signing-secret.provider';
export { SettingsRepository } from './settings.repository';
export {
  hasDownload,
  processedRowsOf,
  resultUrl,
  summaryOf,
  toBatchJob,
  type ResultUrlOptions,
} from './batch-job.view';
export {
  END_STATUSES,
  INITIAL_STATUS,
  JOB_STATES,
  JOB_TRANSITIONS,
  LIVE_STATUSES,
  RUNNING_STATUSES,
  fromStatuses,
  isEnded,
  isRunning,
  nextStatus,
  targetOf,
  type EndStatus,
  type FromStatus,
  type JobTransition,
  type LiveStatus,
} from './job-states';
export * from './lifecycle';
export { resultFile, resultFileFormat } from './result-file';
export { decodeJobCursor, encodeJobCursor } from './job-cursor';
