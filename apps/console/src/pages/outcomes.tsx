import { useState } from 'preact/hooks';
import type { FeedbackOutcome, FeedbackStats, HistoryValue } from '@verity/contracts/feedback';
import { api } from '../api';
import { ReliabilityChart } from '../components/reliability-chart';
import { Empty, ErrorNote, Loading } from '../components/states';
import { field } from '../form-field';
import { formatNumber } from '../format';
import { useLoad } from '../use-load';

const VALUE_NAMES: Record<HistoryValue, string> = {
  email: 'email',
  phone: 'phone',
  ip: 'IP address',
  subnet: 'its /24',
};
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** Report how verify calls turned out, and what the live outcomes say about the scores. */
export function OutcomesPage() {
  const stats = useLoad(() => api('outcomeStats'));
  return (
    <>
      <Learned stats={stats.value} error={stats.error} />
      <ReportForm onReported={stats.reload} />
    </>
  );
}

function Learned({ stats, error }: { stats: FeedbackStats | undefined; error: unknown }) {
  return (
    <section class="card" aria-labelledby="learned-h">
      <h2 id="learned-h">What the outcomes say</h2>
      <ErrorNote error={error} />
      {!stats ? (
        error ? null : (
          <Loading label="statistics" />
        )
      ) : stats.labelled_calls === 0 ? (
        <Empty>
          No verify call of the last {stats.retention_days} days has a reported outcome yet. Report
          them below, with <code>POST /v1/feedback</code> or <code>verity feedback</code>: each
          report also raises (fraud) or lowers (legitimate) later scores of the same email, phone
          and IP address.
        </Empty>
      ) : (
        <>
          <dl class="facts" aria-label="Labelled calls">
            {(
              [
                ['Labelled calls', 'labelled', formatNumber(stats.labelled_calls)],
                ['Reported fraud', 'fraud', formatNumber(stats.fraud)],
                ['Reported legitimate', 'legitimate', formatNumber(stats.legitimate)],
                [
                  'AUC of fraud_score',
                  'auc',
                  stats.auc === null ? '— (needs both outcomes)' : stats.auc.toFixed(3),
                ],
              ] as const
            ).map(([label, key, value]) => (
              <div key={key}>
                <dt>{label}</dt>
                <dd class="figure" {...{ [`data-${key}`]: true }}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
          <p class="hint">
            AUC is the chance that a call reported as fraud scored above one reported legitimate (1
            is perfect, 0.5 is chance), over the last {stats.retention_days} days.
          </p>
          {!stats.enough_labels && (
            <p class="warning" data-few-labels>
              Fewer than 50 reports of each outcome: these figures can still move a lot.
            </p>
          )}
          <h3>Fraud rate by score</h3>
          <ReliabilityChart bands={stats.reliability} />
          <h3>By risk level</h3>
          <div class="table-wrap">
            <table aria-label="Labelled calls per risk level" data-risk-table>
              <thead>
                <tr>
                  <th scope="col">Risk</th>
                  <th scope="col" class="num">
                    Labelled calls
                  </th>
                  <th scope="col" class="num">
                    Fraud
                  </th>
                  <th scope="col" class="num">
                    Legitimate
                  </th>
                  <th scope="col" class="num">
                    Fraud rate
                  </th>
                </tr>
              </thead>
              <tbody>
                {stats.risk_levels.map((level) => (
                  <tr key={level.risk} data-risk={level.risk}>
                    <th scope="row">{level.risk}</th>
                    <td class="num">{level.calls}</td>
                    <td class="num">{level.fraud}</td>
                    <td class="num">{level.legitimate}</td>
                    <td class="num">{level.calls === 0 ? '—' : pct(level.fraud / level.calls)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h3>How often each reason was right</h3>
          <p class="hint">
            A risk reason is right when its call was reported fraud, a credit when it was reported
            legitimate. Below 30 calls a reason's precision is a rough guide.
          </p>
          <div class="table-wrap">
            <table aria-label="Precision of each reason on the labelled calls" data-reasons-table>
              <thead>
                <tr>
                  <th scope="col">Reason</th>
                  <th scope="col">Kind</th>
                  <th scope="col" class="num">
                    Calls
                  </th>
                  <th scope="col" class="num">
                    Reported fraud
                  </th>
                  <th scope="col" class="num">
                    Precision
                  </th>
                </tr>
              </thead>
              <tbody>
                {stats.reasons.map((reason) => (
                  <tr key={`${reason.direction} ${reason.code}`} data-reason={reason.code}>
                    <th scope="row">
                      <code>{reason.code}</code>
                    </th>
                    <td>{reason.direction}</td>
                    <td class="num">{reason.calls}</td>
                    <td class="num">{reason.fraud}</td>
                    <td class="num" data-precision>
                      {pct(reason.precision)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

function ReportForm({ onReported }: { onReported: () => void }) {
  const [by, setBy] = useState<'request' | 'values'>('request');
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const text = (name: string) => field(data, name).trim() || undefined;
    const outcome = field(data, 'outcome') as FeedbackOutcome;
    const body =
      by === 'request'
        ? { request_id: text('request_id') ?? '', outcome }
        : { email: text('email'), phone: text('phone'), ip: text('ip'), outcome };
    setBusy(true);
    setError(null);
    setNotice(null);
    api('reportOutcome', { body })
      .then((r) => {
        const values = r.values.map((v) => VALUE_NAMES[v]).join(', ');
        setNotice(
          `Recorded as ${r.outcome}${r.request_id ? ` for call ${r.request_id}` : ''}: later scores of ` +
            `the same ${values || 'values (none kept: test inputs)'} ${r.outcome === 'fraud' ? 'rise' : 'fall'}.`,
        );
        form.reset();
        onReported();
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };

  return (
    <section class="card" aria-labelledby="report-h">
      <h2 id="report-h">Report an outcome</h2>
      <p class="hint">
        Free. Tell Verity how a verify call turned out, by the <code>request_id</code> of its
        answer, or the email, phone or IP address you saw elsewhere. Reports fade by half every 30
        days.
      </p>
      <form class="stack" onSubmit={submit}>
        <fieldset class="toggle">
          <legend>Report by</legend>
          <label>
            <input
              type="radio"
              name="by"
              value="request"
              checked={by === 'request'}
              onChange={() => setBy('request')}
            />
            request_id
          </label>
          <label>
            <input
              type="radio"
              name="by"
              value="values"
              checked={by === 'values'}
              onChange={() => setBy('values')}
            />
            Email, phone or IP
          </label>
        </fieldset>
        {by === 'request' ? (
          <>
            <label for="fb-request">request_id of the verify answer</label>
            <input
              id="fb-request"
              name="request_id"
              type="text"
              required
              placeholder="3f1c6b1e-8d3a-4c55-9d5e-0b1f2a3c4d5e"
            />
          </>
        ) : (
          <>
            <label for="fb-email">Email</label>
            <input id="fb-email" name="email" type="text" placeholder="jane@example.com" />
            <label for="fb-phone">Phone (E.164)</label>
            <input id="fb-phone" name="phone" type="tel" placeholder="+14155552671" />
            <label for="fb-ip">IP address</label>
            <input id="fb-ip" name="ip" type="text" placeholder="203.0.113.7" />
          </>
        )}
        <fieldset class="toggle">
          <legend>Outcome</legend>
          <label>
            <input type="radio" name="outcome" value="fraud" required /> Fraud
          </label>
          <label>
            <input type="radio" name="outcome" value="legitimate" /> Legitimate
          </label>
        </fieldset>
        <button class="primary" type="submit" disabled={busy}>
          {busy ? 'Recording…' : 'Record outcome'}
        </button>
      </form>
      <ErrorNote error={error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
    </section>
  );
}
