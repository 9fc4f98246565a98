export const OPERATION_LABELS: Record<string, string> = {
  email_validate: 'Email',
  phone_validate: 'Phone',
  phone_validate_hlr: 'Phone HLR',
  ip_intel: 'IP',
  verify: 'Verify',
  batch_row: 'Batch rows',
};

export function operationLabel(op: string): string {
  return OPERATION_LABELS[op] ?? op;
}

export function formatTime(iso: string | null): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

export function formatNumber(n: number): string {
  return n.toLocaleString('en-US');
}
