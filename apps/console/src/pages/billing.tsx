import { useState } from 'preact/hooks';
import type { LedgerPage } from '@verity/contracts/account';
import type { ConsoleOverview } from '@verity/contracts/console';
import { api } from '../api';
import { Empty, ErrorNote, Loading } from '../components/states';
import { formatNumber, formatTime, operationLabel } from '../format';
import { useLoad } from '../use-load';
import type { PageProps } from './props';

const REASONS: Record<string, string> = {
  grant: 'Grant',
  top_up: 'Credits added',
  refund: 'Refund',
  batch_refund: 'Batch refund',
  lease_reserved: 'Reserved by an API instance',
  lease_released: 'Unspent, given back',
  lease_recovered: 'Recovered from a stopped instance',
};

export function BillingPage({ session }: PageProps) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const before = cursors[cursors.length - 1];
  const balance = useLoad(() => api<ConsoleOverview>('GET', '/overview'));
  const ledger = useLoad(
    () => api<LedgerPage>('GET', `/ledger?limit=25${before ? `&before=${before}` : ''}`),
    [before],
  );
  const origin = location.origin;
  return (
    <>
      <section class="card" aria-labelledby="balance-h">
        <h2 id="balance-h">Balance</h2>
        {balance.value ? (
          <p class="big" data-balance={balance.value.credits_balance}>
            {formatNumber(balance.value.credits_balance)} <span class="unit">credits</span>
          </p>
        ) : (
          <Loading label="balance" />
        )}
        <ErrorNote error={balance.error} />
      </section>

      <section class="card" aria-labelledby="add-h">
        <h2 id="add-h">Adding credits</h2>
        <p>
          This is a self-hosted install: credits are added by its operator with the admin API or the
          CLI. Give them this account id:
        </p>
        <p>
          <code data-account-id>{session.account_id}</code>
        </p>
        <pre>
          {`curl -X POST -H "Authorization: Bearer $ADMIN_TOKEN" -H "Content-Type: application/json" \\
  -d '{"amount": 10000}' ${origin}/admin/accounts/${session.account_id}/credits`}
        </pre>
      </section>

      <section class="card" aria-labelledby="ledger-h">
        <h2 id="ledger-h">Ledger</h2>
        <ErrorNote error={ledger.error} />
        {!ledger.value ? (
          <Loading label="ledger" />
        ) : ledger.value.data.length === 0 ? (
          <Empty>No movements yet.</Empty>
        ) : (
          <div class="table-wrap">
            <table aria-label="Ledger, newest first">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Operation</th>
                  <th scope="col">Key</th>
                  <th scope="col" class="num">
                    Credits
                  </th>
                  <th scope="col" class="num">
                    Balance after
                  </th>
                  <th scope="col">Reference</th>
                </tr>
              </thead>
              <tbody>
                {ledger.value.data.map((e) => (
                  <tr key={e.id} data-reason={e.reason} data-delta={e.delta}>
                    <td>{formatTime(e.created_at)}</td>
                    <td>{REASONS[e.reason] ?? operationLabel(e.reason)}</td>
                    <td>{e.key_name ?? (e.key_id ? 'console' : '—')}</td>
                    <td class={`num ${e.delta < 0 ? 'debit' : 'credit'}`}>
                      {e.delta > 0 ? '+' : '−'}
                      {formatNumber(Math.abs(e.delta))}
                    </td>
                    <td class="num">{formatNumber(e.balance_after)}</td>
                    <td>{e.reference ? <code>{e.reference}</code> : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div class="pager">
          <button
            type="button"
            disabled={cursors.length === 1}
            onClick={() => setCursors(cursors.slice(0, -1))}
          >
            Newer
          </button>
          <button
            type="button"
            disabled={!ledger.value?.next_before}
            onClick={() => setCursors([...cursors, ledger.value!.next_before])}
          >
            Older
          </button>
        </div>
      </section>
    </>
  );
}
