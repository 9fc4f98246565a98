import { useState } from 'preact/hooks';
import type { ExplainedReason, ExplainedVerifyResult } from '@verity/contracts/account';
import type { EmailResult, IpResult, PhoneResult } from '@verity/contracts/results';

/** The calls the playground makes. */
export type PlaygroundKind = 'email' | 'phone' | 'ip' | 'verify';

type Fact = [label: string, value: string | number | boolean | null | undefined];

/**
 * A playground answer in words: the verdict and score first (for verify, its reasons), then the
 * key fields; the whole JSON answer behind a toggle.
 */
export function PlaygroundResult({ kind, result }: { kind: PlaygroundKind; result: unknown }) {
  const [raw, setRaw] = useState(false);
  const view = describe(kind, result);
  return (
    <section class="result" aria-labelledby="result-h">
      <h3 id="result-h">Result</h3>
      <p class="verdict" data-verdict>
        {view.verdict}
      </p>
      {view.reasons && <Reasons reasons={view.reasons} />}
      {view.groups.map(([title, facts]) => (
        <Facts key={title} title={title} facts={facts} />
      ))}
      <button type="button" aria-expanded={raw} onClick={() => setRaw(!raw)}>
        {raw ? 'Hide the JSON answer' : 'Show the JSON answer'}
      </button>
      {raw && (
        <pre aria-label="JSON result" data-result>
          {JSON.stringify(result, null, 2)}
        </pre>
      )}
    </section>
  );
}

interface View {
  verdict: string;
  reasons?: ExplainedReason[];
  groups: [title: string, facts: Fact[]][];
}

function describe(kind: PlaygroundKind, result: unknown): View {
  switch (kind) {
    case 'email': {
      const email = result as EmailResult;
      return {
        verdict: `${capital(email.deliverability)} · score ${email.score}/100`,
        groups: [['Email', emailFacts(email)]],
      };
    }
    case 'phone': {
      const phone = result as PhoneResult;
      return {
        verdict: `${phone.valid ? 'Valid' : 'Not valid'} · score ${phone.score}/100`,
        groups: [['Phone', phoneFacts(phone)]],
      };
    }
    case 'ip': {
      const ip = result as IpResult;
      return {
        verdict: `Abuse score ${ip.abuse_score}/100${flagged(ip)}`,
        groups: [['IP address', ipFacts(ip)]],
      };
    }
    case 'verify': {
      const verify = result as ExplainedVerifyResult;
      const groups: View['groups'] = [];
      if (verify.email) groups.push(['Email', emailFacts(verify.email)]);
      if (verify.phone) groups.push(['Phone', phoneFacts(verify.phone)]);
      if (verify.ip) groups.push(['IP address', ipFacts(verify.ip)]);
      // The id to report the call's outcome with on the Outcomes page.
      groups.push(['Call', [['request_id', verify.request_id]]]);
      return {
        verdict: `${capital(verify.risk)} risk · fraud score ${verify.fraud_score}/100`,
        reasons: verify.reasons ?? [],
        groups,
      };
    }
  }
}

function emailFacts(email: EmailResult): Fact[] {
  return [
    ['Address', email.input],
    ['Deliverability', email.deliverability],
    ['Score', email.score],
    ['Valid syntax', email.valid_syntax],
    ['Mail server (MX)', email.mx_found],
    ['Disposable', email.disposable],
    ['Role address', email.role_based],
    ['Free provider', email.free_provider],
    ['Did you mean', email.did_you_mean],
    ['Credits used', email.credits_used],
  ];
}

function phoneFacts(phone: PhoneResult): Fact[] {
  return [
    ['Number', phone.e164 ?? phone.input],
    ['Valid', phone.valid],
    ['Score', phone.score],
    ['Country', phone.country],
    ['Line type', phone.line_type],
    ['Carrier', phone.carrier],
    ['HLR', phone.hlr ? phone.hlr.status : 'not requested'],
    ['Credits used', phone.credits_used],
  ];
}

function ipFacts(ip: IpResult): Fact[] {
  return [
    ['Address', ip.input],
    ['Abuse score', ip.abuse_score],
    ['Country', ip.country],
    ['City', ip.city],
    ['Network', ip.asn === null ? null : `AS${ip.asn} ${ip.asn_org ?? ''}`.trim()],
    ['VPN', ip.vpn],
    ['Proxy', ip.proxy],
    ['Tor', ip.tor],
    ['Data centre', ip.datacenter],
    ['Credits used', ip.credits_used],
  ];
}

function flagged(ip: IpResult): string {
  const flags = [
    ip.vpn && 'VPN',
    ip.proxy && 'proxy',
    ip.tor && 'Tor',
    ip.datacenter && 'data centre',
  ].filter((flag): flag is string => typeof flag === 'string');
  return flags.length ? ` · ${flags.join(', ')}` : '';
}

function Reasons({ reasons }: { reasons: ExplainedReason[] }) {
  return (
    <>
      <h4>Reasons</h4>
      {reasons.length === 0 ? (
        <p class="hint">No reason changed the base score.</p>
      ) : (
        <ul class="reasons" aria-label="Reasons">
          {reasons.map((reason) => (
            <li key={reason.code}>
              <span class={reason.points > 0 ? 'points up' : 'points down'}>
                {reason.points > 0 ? `+${reason.points}` : reason.points}
              </span>{' '}
              {reason.description} <span class="hint">({reason.signal})</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function Facts({ title, facts }: { title: string; facts: Fact[] }) {
  return (
    <>
      <h4>{title}</h4>
      <dl class="facts">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{show(value)}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

function show(value: Fact[1]): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1).replace(/_/g, ' ');
}
