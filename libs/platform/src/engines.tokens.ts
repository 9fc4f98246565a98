import type { EmailFields, IpFields, PhoneFields } from '@verity/contracts';

/** Injection tokens for the validation engines, shared by the API and the scorer. */
export const EMAIL_ENGINE = Symbol.for('verity.engine.email');
export const PHONE_ENGINE = Symbol.for('verity.engine.phone');
export const IP_ENGINE = Symbol.for('verity.engine.ip');

export interface EmailEnginePort {
  validate(input: string): Promise<EmailFields>;
}

export interface PhoneEnginePort {
  validate(request: { phone: string; country_hint?: string; hlr?: boolean }): Promise<PhoneFields>;
}

export interface IpEnginePort {
  lookup(input: string): IpFields;
}
