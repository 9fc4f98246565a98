// Phone data sets (Google carrier prefixes) and the phone engine composition.
export { CarrierTable, defaultCarrierDataDir } from './carrier-table';
export {
  buildPhoneEngine,
  type BuiltPhoneEngine,
  type HlrCallOutcome,
  type PhoneEngineEvents,
} from './phone-engine.factory';
