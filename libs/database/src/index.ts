export { openDatabase } from './data-source.factory';
export { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres.launcher';
export * from './entities';
