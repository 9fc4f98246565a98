// IP data adapters: MMDB databases, ASN CSV, open-data lists (Tor, X4BNet, cloud ranges), updates.
export { buildIpEngine, type IpEngineHandle, type BuildIpEngineOptions } from './ip-engine.builder';
export { updateIpData, type IpDataUpdateOptions, type IpDataUpdateResult } from './ip-data.updater';
export type { DataSourceStatus } from './data-source.status';
export { resolveIpPaths, type IpDataPaths } from './ip-data.paths';
export { geoFromRecord, asnFromRecord, anonymousFromRecord } from './ip-record.mapping';
export {
  DataRefreshScheduler,
  warnStale,
  type DataRefreshLog,
  type DataRefreshOptions,
} from './data-refresh.scheduler';
