export { openDatabase } from './data-source.factory';
export { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres.launcher';
export { makeDir, notWritable, ROOT_CLUSTERS_DIR } from './embedded-postgres.location';
export * from './entities';
export { entitiesFromRows } from './raw-entities';
export { inTransaction } from './transaction';
