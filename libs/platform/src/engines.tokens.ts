import type {
  EmailFields,
  ExplainedEmailFields,
  ExplainedIpFields,
  IpFields,
  PhoneFields,
} from '@verity/contracts';
import type { EmailBatchOptions, EmailCheck, EmailOfflineSignals } from '@verity/validation';

/** Injection tokens for the validation engines, shared by the API and the scorer. */
export const EMAIL_ENGINE = Symbol.for('verity.engine.email');
export const PHONE_ENGINE = Symbol.for('verity.engine.phone');
export const IP_ENGINE = Symbol.for('verity.engine.ip');
/** The three engines together, for the work that uses each (verify, the scorer). */
export const ENGINES = Symbol.for('verity.engines');
/**
 * The engines of test keys and test batch jobs (docs/test-mode.md): the magic inputs, and the
 * offline parts of ENGINES for everything else. They send nothing to the network.
 */
export const TEST_ENGINES = Symbol.for('verity.engines.test');

export interface EmailEnginePort {
  validate(input: string): Promise<EmailFields>;
  /** `validate` plus the DNS outcome behind `mx_found` (the fraud model reads it). */
  check(input: string): Promise<EmailCheck>;
  /** `validate` plus the mailbox evidence (`?explain=true`). */
  explain(input: string): Promise<ExplainedEmailFields>;
  /** A batch chunk's addresses, in order, with the SMTP probe when the job asks for it. */
  checkMany(inputs: readonly string[], options: EmailBatchOptions): Promise<EmailCheck[]>;
  /** Syntax, lists and typo model only: no DNS (the test engines build on it). */
  analyzeOffline(input: string): EmailOfflineSignals;
}

export interface PhoneEnginePort {
  validate(request: { phone: string; country_hint?: string; hlr?: boolean }): Promise<PhoneFields>;
}

export interface IpEnginePort {
  lookup(input: string): IpFields;
  /** `lookup` plus each open-data list's state (`?explain=true`). */
  explain(input: string): ExplainedIpFields;
}

/** The three validation engines of a process, built once by the composition root. */
export interface Engines {
  email: EmailEnginePort;
  phone: PhoneEnginePort;
  ip: IpEnginePort;
}
