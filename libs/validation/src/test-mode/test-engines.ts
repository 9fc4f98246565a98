// The engines of test keys (docs/test-mode.md): the live engines' offline parts plus the magic
// table, and nothing that leaves the process (no DNS, SMTP or HLR).
import type { HlrResult, IpFields, MailboxEvidence, PhoneFields } from '@verity/contracts';
import { emailFields, type EmailCheck, type EmailEngine } from '../email/email.engine';
import { mailboxDetail } from '../email/email.mailbox';
import type { MxLookup } from '../email/email.ports';
import { specialUseTld } from '../email/email.special-use';
import type { IpEngine } from '../ip/ip.engine';
import { parseCountryHint } from '../phone/country-hint';
import type { PhoneEngine, PhoneRequest } from '../phone/phone.engine';
import { scorePhone } from '../phone/phone.scorer';
import { magicEmail, magicIp, magicPhone } from './magic-inputs';

/** What the test engines borrow from the live ones: only parts that do no I/O. */
export interface TestEngineSources {
  /** Syntax, lists and typo model (`analyzeOffline` never asks DNS). */
  email: Pick<EmailEngine, 'analyzeOffline'>;
  /** Asked only with `hlr: false`: libphonenumber and the carrier table. */
  phone: PhoneEngine;
  /** The local IP databases and lists (a lookup reads memory only). */
  ip: IpEngine;
}

/** The three engines a test key's calls and test batch jobs use. */
export interface TestEngines {
  email: EmailEngine;
  phone: PhoneEngine;
  ip: IpEngine;
}

/** No lookup was made: the model reads it as DNS giving no answer (no evidence either way). */
const NOT_ASKED: MxLookup = { kind: 'unknown', reason: 'error' };
/** A special-use name takes no Internet mail, as the live engine answers without DNS. */
const NO_MAIL: MxLookup = { kind: 'no_mail' };
/** A test key never asks a mail server (docs/test-mode.md). */
const TEST_KEY_MAILBOX: MailboxEvidence = {
  checked: false,
  verdict: null,
  reason: 'test_key',
  detail: mailboxDetail('test_key'),
  host: null,
  reply_code: null,
  enhanced_status: null,
  catch_all: null,
  source: null,
  duration_ms: null,
};
/** `hlr: true` for a number that is not magic: no provider is asked, so nothing is known. */
const NO_HLR_EVIDENCE: HlrResult = { status: 'unavailable', ported: null, roaming: null };

function testEmailCheck(live: TestEngineSources['email'], input: string): EmailCheck {
  const offline = live.analyzeOffline(input);
  const { parsed } = offline;
  const magic = parsed === null ? undefined : magicEmail(parsed.local, parsed.domain);
  if (magic !== undefined) return { fields: { input, ...magic }, dns: 'answered', smtp: null };
  const specialUse = parsed !== null && specialUseTld(parsed.domain) !== null;
  const mx = parsed === null ? null : specialUse ? NO_MAIL : NOT_ASKED;
  const fields = emailFields(offline, mx, null);
  const dns = parsed === null ? 'not_asked' : specialUse ? 'special_use' : 'test_key';
  return { fields, dns, smtp: null };
}

async function testPhone(live: PhoneEngine, req: PhoneRequest): Promise<PhoneFields> {
  const magic = magicPhone(req.phone);
  if (magic === undefined) {
    const fields = await live.validate({ ...req, hlr: false });
    if (req.hlr !== true) return fields;
    const hlr = NO_HLR_EVIDENCE;
    // An invalid number's score does not depend on HLR (scorePhone), as in the live engine.
    return {
      ...fields,
      hlr,
      score: fields.valid ? scorePhone({ parsed: true, ...fields, hlr }) : fields.score,
    };
  }
  // A bad country_hint is refused for a magic number as for any other.
  parseCountryHint(req.country_hint);
  return req.hlr === true
    ? { input: req.phone, ...magic.fields, hlr: magic.hlr, score: magic.hlr_score }
    : { input: req.phone, ...magic.fields, hlr: null };
}

/** Builds the test engines over the live engines' offline parts. */
export function createTestEngines(live: TestEngineSources): TestEngines {
  return {
    email: {
      analyzeOffline: (input) => live.email.analyzeOffline(input),
      check: (input) => Promise.resolve(testEmailCheck(live.email, input)),
      validate: (input) => Promise.resolve(testEmailCheck(live.email, input).fields),
      explain: (input) =>
        Promise.resolve({
          ...testEmailCheck(live.email, input).fields,
          mailbox: { ...TEST_KEY_MAILBOX },
        }),
      checkMany: (inputs, options) =>
        Promise.resolve(
          inputs.map((input) => {
            options.signal?.throwIfAborted();
            const check = testEmailCheck(live.email, input);
            options.onRow?.();
            return check;
          }),
        ),
    },
    phone: { validate: (req) => testPhone(live.phone, req) },
    ip: {
      lookup(input): IpFields {
        const magic = magicIp(input);
        return magic === undefined ? live.ip.lookup(input) : { input, ...magic };
      },
      // A magic answer consults no list, so it has no list evidence to show.
      explain(input) {
        const magic = magicIp(input);
        return magic === undefined ? live.ip.explain(input) : { input, ...magic, lists: [] };
      },
    },
  };
}
