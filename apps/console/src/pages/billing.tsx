import { useState } from 'preact/hooks';
import { ErrorNote, Loading } from '../components/states';
import { formatNumber } from '../format';
import { api } from '../api';
import { useLoad } from '../use-load';
import { BillingLedger } from './billing-ledger';
import { BillingStatement } from './billing-statement';
import type { PageProps } from './props';

/** How credits are added on this deployment: the admin API when it is on, else the CLI. */
function AddingCredits({ accountId, adminApi }: { accountId: string; adminApi: boolean }) {
  return (
    <section class="card" aria-labelledby="add-h">
      <h2 id="add-h">Adding credits</h2>
      <p>
        This is a self-hosted install: credits are added by its operator. Give them this account id:
      </p>
      <p>
        <code data-account-id>{accountId}</code>
      </p>
      {adminApi ? (
        <>
          <p data-add-credits="admin-api">With the admin API (its ADMIN_TOKEN is set here):</p>
          <pre>
            {`curl -X POST -H "Authorization: Bearer $ADMIN_TOKEN" -H "Content-Type: application/json" \\
  -d '{"amount": 10000}' ${location.origin}/admin/accounts/${accountId}/credits`}
          </pre>
        </>
      ) : (
        <>
          <p data-add-credits="cli">
            The admin API is off on this server (no ADMIN_TOKEN), so the operator runs this in the
            server's repository, on its data directory:
          </p>
          <pre>{`node bin/verity.js accounts credit --account ${accountId} --amount 10000`}</pre>
        </>
      )}
    </section>
  );
}

export function BillingPage({ session }: PageProps) {
  const overview = useLoad(() => api('overview'));
  const [ledgerOpen, setLedgerOpen] = useState(false);
  return (
    <>
      <section class="card" aria-labelledby="balance-h">
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

      {overview.value && (
        <AddingCredits accountId={session.account_id} adminApi={overview.value.admin_api} />
      )}

      <BillingStatement />

      <details class="card" onToggle={(e) => setLedgerOpen(e.currentTarget.open)}>
        <summary>Ledger entries (operator detail)</summary>
        {ledgerOpen && <BillingLedger />}
      </details>
    </>
  );
}
