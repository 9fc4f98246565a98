import { useMemo, useState } from 'preact/hooks';
import { api } from '../api';
import { Empty, ErrorNote, Loading } from '../components/states';
import { lastDays, UsageChart, type Measure } from '../components/usage-chart';
import { formatNumber } from '../format';
import { useLoad } from '../use-load';
import { JobsTable } from './jobs-table';

const CONSOLE_KEY_ID = '00000000-0000-0000-0000-000000000000';

export function OverviewPage() {
  const [keyId, setKeyId] = useState('');
  const [measure, setMeasure] = useState<Measure | 'test'>('calls');
  const overview = useLoad(() => api('overview'));
  const keys = useLoad(() => api('keys'));
  const usage = useLoad(() => api('usage', { query: { key_id: keyId || undefined } }), [keyId]);
  const days = useMemo(() => lastDays(usage.value?.days ?? 30), [usage.value]);
  const shown = measure === 'test' ? usage.value?.test_calls : usage.value?.data;

  return (
    <>
      <section aria-labelledby="balance-h" class="card">
        <h2 id="balance-h">Balance</h2>
        {overview.value ? (
          <p class="big" data-balance={overview.value.credits_balance}>
            {formatNumber(overview.value.credits_balance)} <span class="unit">credits</span>
          </p>
        ) : (
          <Loading label="balance" />
        )}
        <ErrorNote error={overview.error} />
      </section>

      <section aria-labelledby="usage-h" class="card">
        <h2 id="usage-h">Usage, last 30 days</h2>
        <div class="filters">
          <label for="usage-key">Key</label>
          <select id="usage-key" value={keyId} onChange={(e) => setKeyId(e.currentTarget.value)}>
            <option value="">All keys</option>
            {keys.value?.data.map((k) => (
              <option key={k.id} value={k.id}>
                {k.name} ({k.hint})
              </option>
            ))}
            <option value={CONSOLE_KEY_ID}>Console (playground, uploads)</option>
          </select>
          <fieldset class="toggle">
            <legend>Show</legend>
            {(['calls', 'credits', 'test'] as const).map((m) => (
              <label key={m}>
                <input
                  type="radio"
                  name="measure"
                  value={m}
                  checked={measure === m}
                  onChange={() => setMeasure(m)}
                />
                {m === 'calls' ? 'Calls' : m === 'credits' ? 'Credits' : 'Test calls'}
              </label>
            ))}
          </fieldset>
        </div>
        <ErrorNote error={usage.error} />
        {!usage.value || !shown ? (
          <Loading label="usage" />
        ) : shown.length === 0 ? (
          measure === 'test' ? (
            <Empty>
              No calls with test keys in the last 30 days{keyId ? ' with this key' : ''}. Test keys
              (<code>vrt_test_…</code>) are free and counted here, apart from live usage.
            </Empty>
          ) : (
            <Empty>
              No calls in the last 30 days{keyId ? ' with this key' : ''}. Create a key on the API
              keys page and call <code>/v1/ping</code>, or try the Playground.
            </Empty>
          )
        ) : (
          <UsageChart
            days={days}
            operations={usage.value.operations}
            data={shown}
            measure={measure === 'test' ? 'calls' : measure}
          />
        )}
      </section>

      <section aria-labelledby="jobs-h" class="card">
        <h2 id="jobs-h">Last batch jobs</h2>
        <ErrorNote error={overview.error} />
        {!overview.value ? (
          <Loading label="jobs" />
        ) : overview.value.recent_jobs.length === 0 ? (
          <Empty>No batch jobs yet. Upload a CSV on the Batch page.</Empty>
        ) : (
          <JobsTable jobs={overview.value.recent_jobs} />
        )}
      </section>
    </>
  );
}
