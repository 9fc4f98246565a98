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

/** A moment in a table cell, short enough not to wrap: the year only when it is not this one. */
export function formatTime(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return date.toLocaleString(undefined, {
    year: date.getFullYear() === new Date().getFullYear() ? undefined : 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
}

/** The full moment, for a tooltip. */
export function formatFullTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'long' });
}

export function formatNumber(n: number): string {
  return n.toLocaleString('en-US');
}
