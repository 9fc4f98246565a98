// What a client sends to the JSON endpoints, as plain types: the console's route table
// (console-routes.ts) and any client can take them without zod. requests.ts checks that its
// schemas accept exactly these.

import type { KeyMode } from './account';

/** POST /v1/email/validate. */
export interface EmailValidateRequest {
  email: string;
}

/** POST /v1/phone/validate. */
export interface PhoneValidateRequest {
  phone: string;
  /** ISO 3166-1 alpha-2, for a number without its country code. */
  country_hint?: string;
  hlr?: boolean;
}

/** POST /v1/ip/intel. */
export interface IpIntelRequest {
  ip: string;
}

/** POST /v1/verify: at least one of the three. */
export interface VerifyRequest {
  email?: string;
  phone?: string;
  ip?: string;
  /** ISO 3166-1 alpha-2, for a `phone` without its country code. */
  country_hint?: string;
}

/** POST /v1/keys as sent (`CreateKeyRequest` is what the server reads: `mode` defaults to live). */
export interface CreateKeyBody {
  name: string;
  mode?: KeyMode;
}
