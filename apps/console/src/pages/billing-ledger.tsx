import { api } from '../api';
import { Pager, useCursors } from '../components/pager';
import { Empty, ErrorNote, Loading } from '../components/states';
import { formatNumber, formatTime, operationLabel } from '../format';
import { useLoad } from '../use-load';

const REASONS: Record<string, string> = {
  grant: 'Grant',
  top_up: 'Credits added',
  refund: 'Refund',
  batch_refund: 'Batch refund',
  lease_reserved: 'Reserved by an API instance',
  lease_released: 'Unspent, given back',
  lease_recovered: 'Recovered from a stopped instance',
};

/** The raw ledger, credit-lease movements included (docs/credits.md): for the operator. */
export function BillingLedger() {
  const pages = useCursors();
  const before = pages.before;
  const ledger = useLoad(
    () => api('ledger', { query: { limit: 25, before: before || undefined } }),
    [before],
  );
  return (
    <>
      <p class="hint">
        Every balance movement as the server books it. Calls paid from a block an API instance
        reserved have no row of their own: the statement above counts them per key.
      </p>
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
      <Pager pages={pages} next={ledger.value?.next_before} />
    </>
  );
}
