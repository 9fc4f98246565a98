import type { PhoneConfig } from '@verity/config';
import { ConfigError } from '@verity/config';
import { createPhoneEngine, type HlrProvider, type PhoneEngine } from '@verity/validation';
import { HlrLookupsProvider } from '../hlr/hlr-lookups.provider';
import { HlrUnavailableError, type HlrFailureReason } from '../hlr/hlr.errors';
import { NotConfiguredHlrProvider } from '../hlr/not-configured.provider';
import { CarrierTable } from './carrier-table';

/** Outcome of one live HLR call: the answer's status, or why there was none. */
export type HlrCallOutcome = 'active' | 'inactive' | 'unavailable' | HlrFailureReason | 'error';

/** Hooks for metrics; the engine itself stays free of observability code. */
export interface PhoneEngineEvents {
  onHlrCall(outcome: HlrCallOutcome): void;
}

/** The composed phone engine and its shutdown hook. */
export interface BuiltPhoneEngine {
  engine: PhoneEngine;
  /** Aborts in-flight HLR lookups; later HLR requests answer 503. */
  close: () => void;
}

/**
 * Wires the phone engine from configuration: Google carrier data loaded once, and the HLR
 * adapter named by HLR_PROVIDER (`none` → every HLR request is a 503, nothing charged).
 */
export function buildPhoneEngine(
  config: PhoneConfig,
  events?: PhoneEngineEvents,
  carriers: CarrierTable = CarrierTable.load(),
): BuiltPhoneEngine {
  let provider: HlrProvider;
  let close = (): void => undefined;
  switch (config.HLR_PROVIDER) {
    case 'none':
      provider = new NotConfiguredHlrProvider();
      break;
    case 'hlr-lookups': {
      if (config.HLR_API_KEY === undefined || config.HLR_API_SECRET === undefined) {
        throw new ConfigError([
          'HLR_API_KEY, HLR_API_SECRET: required when HLR_PROVIDER=hlr-lookups',
        ]);
      }
      const adapter = new HlrLookupsProvider({
        baseUrl: config.HLR_BASE_URL,
        apiKey: config.HLR_API_KEY,
        apiSecret: config.HLR_API_SECRET,
        timeoutMs: config.HLR_TIMEOUT_MS,
      });
      provider = adapter;
      close = () => adapter.close();
      break;
    }
  }
  const hlr = events ? instrument(provider, events) : provider;
  return { engine: createPhoneEngine({ carriers, hlr }), close };
}

function instrument(inner: HlrProvider, events: PhoneEngineEvents): HlrProvider {
  return {
    async lookup(e164) {
      try {
        const result = await inner.lookup(e164);
        events.onHlrCall(result.status);
        return result;
      } catch (err) {
        events.onHlrCall(err instanceof HlrUnavailableError ? err.reason : 'error');
        throw err;
      }
    },
  };
}
