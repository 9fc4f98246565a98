import { useState } from 'preact/hooks';
import type { ExplainedReason } from '@verity/contracts/account';
import type { ConsoleResponse } from '@verity/contracts/console-routes';
import type { IpResult } from '@verity/contracts/results';
import {
  EMAIL_ROWS,
  facts,
  IP_ROWS,
  PHONE_ROWS,
  verifyGroups,
  type Fact,
  type FactGroup,
  type FactValue,
} from './result-fields';

/** A playground answer: the call made and its result, typed by the console's route table. */
export type PlaygroundAnswer =
  | { kind: 'email'; result: ConsoleResponse<'playgroundEmail'> }
  | { kind: 'phone'; result: ConsoleResponse<'playgroundPhone'> }
  | { kind: 'ip'; result: ConsoleResponse<'playgroundIp'> }
  | { kind: 'verify'; result: ConsoleResponse<'playgroundVerify'> };

/** The calls the playground makes. */
export type PlaygroundKind = PlaygroundAnswer['kind'];

/**
 * A playground answer in words: the verdict and score first (for verify, its reasons), then the
 * result's fields (result-fields.ts); the whole JSON answer behind a toggle.
 */
export function PlaygroundResult({ answer }: { answer: PlaygroundAnswer }) {
  const [raw, setRaw] = useState(false);
  const view = describe(answer);
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
          {JSON.stringify(answer.result, null, 2)}
        </pre>
      )}
    </section>
  );
}

interface View {
  verdict: string;
  reasons?: ExplainedReason[];
  groups: FactGroup[];
}

function describe(answer: PlaygroundAnswer): View {
  switch (answer.kind) {
    case 'email': {
      const email = answer.result;
      return {
        verdict: `${capital(email.deliverability)} · score ${email.score}/100`,
        groups: [['Email', facts(email, EMAIL_ROWS)]],
      };
    }
    case 'phone': {
      const phone = answer.result;
      return {
        verdict: `${phone.valid ? 'Valid' : 'Not valid'} · score ${phone.score}/100`,
        groups: [['Phone', facts(phone, PHONE_ROWS)]],
      };
    }
    case 'ip': {
      const ip = answer.result;
      return {
        verdict: `Abuse score ${ip.abuse_score}/100${flagged(ip)}`,
        groups: [['IP address', facts(ip, IP_ROWS)]],
      };
    }
    case 'verify': {
      const verify = answer.result;
      return {
        verdict: `${capital(verify.risk)} risk · fraud score ${verify.fraud_score}/100`,
        reasons: verify.reasons ?? [],
        groups: verifyGroups(verify),
      };
    }
  }
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

function show(value: FactValue): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1).replace(/_/g, ' ');
}
