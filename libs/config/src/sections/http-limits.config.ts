import { z } from 'zod';
import { envInt } from '../env-types';

/**
 * How long and how many: what one client may hold of the API's connections and time
 * (docs/operations.md, "Connection and body limits").
 */
export const httpLimitsSchema = z.object({
  /** A request's JSON body must have arrived completely this long after the request began (408). */
  BODY_TIMEOUT_MS: envInt(10_000),
  /**
   * An upload must average at least this many bytes a second once BODY_IDLE_TIMEOUT_MS has
   * passed (408), so a body trickled faster than the idle cut still ends; 0: no minimum.
   */
  BODY_MIN_BYTES_PER_SECOND: envInt(1_024, 0),
  /**
   * Open connections one client address (IPv6: its /64) may hold; more are closed as they
   * arrive. Peers listed in TRUST_PROXY are not counted (their clients are many).
   */
  CONNECTIONS_PER_ADDRESS: envInt(128),
});

/** The http-limits section of the validated config (inject it with HTTP_LIMITS_CONFIG). */
export type HttpLimitsConfig = z.infer<typeof httpLimitsSchema>;
