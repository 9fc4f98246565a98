// Live HLR adapters behind the HlrProvider port of @verity/validation.
export {
  HlrLookupsProvider,
  hlrLookupsSignature,
  type HlrLookupsOptions,
} from './hlr-lookups.provider';
export { NotConfiguredHlrProvider } from './not-configured.provider';
export { HlrUnavailableError, type HlrFailureReason } from './hlr.errors';
