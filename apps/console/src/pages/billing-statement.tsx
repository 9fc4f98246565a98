import { useState } from 'preact/hooks';
import type { StatementGranularity } from '@verity/contracts/console';
import { api } from '../api';
import { Pager, useCursors } from '../components/pager';
import { Empty, ErrorNote, Loading } from '../components/states';
import { formatNumber, formatTime, operationLabel } from '../format';
import { useLoad } from '../use-load';

const ADDED: Record<string, string> = { grant: 'Opening credits', top_up: 'Credits added' };

function formatDay(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });
}

function Credits({ n, sign }: { n: number; sign: '+' | '−' }) {
  return (
    <td class={`num ${sign === '+' ? 'credit' : 'debit'}`}>
      {n === 0 ? '0' : `${sign}${formatNumber(Math.abs(n))}`}
    </td>
  );
}

/** What the account bought and spent: top-ups, calls per key and operation, batch jobs. */
export function BillingStatement() {
  const [granularity, setGranularity] = useState<StatementGranularity>('day');
  const pages = useCursors();
  const before = pages.before;
  const statement = useLoad(
    () => api('statement', { query: { granularity, before: before || undefined } }),
    [granularity, before],
  );
  const s = statement.value;
  const period = (iso: string) => (granularity === 'day' ? formatDay(iso) : formatTime(iso));
  return (
    <section class="card" aria-labelledby="statement-h">
      <h2 id="statement-h">Credits bought and spent</h2>
      <div class="filters">
        <fieldset class="toggle">
          <legend>Calls per</legend>
          {(['day', 'hour'] as const).map((g) => (
            <label key={g}>
              <input
                type="radio"
                name="granularity"
                value={g}
                checked={granularity === g}
                onChange={() => {
                  setGranularity(g);
                  pages.reset();
                }}
              />
              {g === 'day' ? 'Day' : 'Hour'}
            </label>
          ))}
        </fieldset>
        {s && (
          <span class="hint" data-statement-range>
            {formatTime(s.from)} – {formatTime(s.to)} (UTC periods)
          </span>
        )}
      </div>
      <ErrorNote error={statement.error} />
      {!s ? (
        <Loading label="statement" />
      ) : (
        <>
          <h3>Credits added</h3>
          {s.credits_added.length === 0 ? (
            <Empty>No credits added in this period.</Empty>
          ) : (
            <div class="table-wrap">
              <table aria-label="Credits added, newest first">
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">What</th>
                    <th scope="col" class="num">
                      Credits
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {s.credits_added.map((c, i) => (
                    <tr key={`${c.at}-${i}`} data-added={c.credits}>
                      <td>{formatTime(c.at)}</td>
                      <td>{ADDED[c.reason] ?? c.reason}</td>
                      <Credits n={c.credits} sign="+" />
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h3>Calls</h3>
          {s.calls.length === 0 ? (
            <Empty>No calls in this period.</Empty>
          ) : (
            <div class="table-wrap">
              <table aria-label={`Calls per key and operation, per ${granularity}, newest first`}>
                <thead>
                  <tr>
                    <th scope="col">{granularity === 'day' ? 'Day' : 'Hour'}</th>
                    <th scope="col">Key</th>
                    <th scope="col">Operation</th>
                    <th scope="col" class="num">
                      Calls
                    </th>
                    <th scope="col" class="num">
                      Credits
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {s.calls.map((c) => (
                    <tr
                      key={`${c.period}-${c.key_id ?? ''}-${c.operation}`}
                      data-key={c.key_name ?? ''}
                      data-operation={c.operation}
                      data-calls={c.calls}
                    >
                      <td>{period(c.period)}</td>
                      <td>{c.key_name ?? (c.key_id ? 'deleted key' : 'Console')}</td>
                      <td>{operationLabel(c.operation)}</td>
                      <td class="num">{formatNumber(c.calls)}</td>
                      <Credits n={c.credits} sign="−" />
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h3>Batch jobs</h3>
          {s.batch_jobs.length === 0 ? (
            <Empty>No batch jobs in this period.</Empty>
          ) : (
            <div class="table-wrap">
              <table aria-label="Batch jobs charged, newest first">
                <thead>
                  <tr>
                    <th scope="col">Charged</th>
                    <th scope="col">File and job</th>
                    <th scope="col">Type</th>
                    <th scope="col" class="num">
                      Charged
                    </th>
                    <th scope="col" class="num">
                      Refunded
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {s.batch_jobs.map((j) => (
                    <tr key={j.job_id} data-job={j.job_id} data-refunded={j.refunded}>
                      <td>{formatTime(j.charged_at)}</td>
                      <td class="job-name">
                        <span data-file-name title={j.file_name ?? undefined}>
                          {j.file_name ?? 'no file name'}
                        </span>
                        <code>{j.job_id}</code>
                      </td>
                      <td>{j.type ?? '—'}</td>
                      <Credits n={j.charged} sign="−" />
                      <Credits n={j.refunded} sign="+" />
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
      <Pager pages={pages} next={s?.next_before} />
    </section>
  );
}
