import { useState } from 'preact/hooks';

/**
 * A secret on screen under its `label` (which names it): the value, a copy button and a plain
 * warning. `once` (the default) is for values only a hash of is kept (API keys); a stored secret
 * can be revealed again.
 */
export function SecretOnce({
  label,
  value,
  once = true,
}: {
  label: string;
  value: string;
  once?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(value).catch(() => undefined);
    setCopied(true);
  };
  return (
    <div class="secret" role="region" aria-label={label}>
      <p class="secret-label">{label}</p>
      <p class="warning">
        {once ? (
          <>
            <strong>Copy it now: you will not see this again.</strong> Only a hash is stored.
          </>
        ) : (
          <strong>Keep it secret: anyone who has it can sign webhooks as Verity.</strong>
        )}
      </p>
      <div class="secret-row">
        <code data-secret>{value}</code>
        <button type="button" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}
