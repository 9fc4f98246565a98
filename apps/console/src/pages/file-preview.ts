import { BATCH_HEADER_NAMES, type BatchType } from '@verity/contracts/batch';

/** How much of a chosen file the browser reads before the upload: its first 256 KiB. */
export const PREVIEW_BYTES = 256 * 1024;
/** Rows shown in the preview table. */
export const PREVIEW_ROWS = 5;

/** What the browser read of a chosen file before it is uploaded. */
export interface FilePreview {
  /** The first records as read (quotes removed, `""` unescaped, padding trimmed), at most 1 + PREVIEW_ROWS. */
  records: string[][];
  /** Cells of the first record: 1 is the single-column file. */
  width: number;
  /** Whether the first record reads as a header: no cell of it is an email, phone number or IP. */
  header: boolean;
  /** Rows in the part read: records that are not the header (the single-column file: not empty). */
  rowsRead: number;
  /** The whole file was read, so `rows` is its count; else `rows` is estimated from the part read. */
  complete: boolean;
  rows: number;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[\d\s().-]{7,24}$/;
const IPV4 = /^(\d{1,3}\.){3}\d{1,3}$/;
const IPV6 = /^[0-9a-f:.]+$/i;

/** Whether `value` looks like a value of `type` (a guess for the preview, not validation). */
export function looksLike(type: BatchType, value: string): boolean {
  switch (type) {
    case 'email':
      return EMAIL.test(value);
    case 'phone':
      return !IPV4.test(value) && PHONE.test(value) && value.replace(/\D/g, '').length >= 7;
    case 'ip':
      return IPV4.test(value) || (IPV6.test(value) && value.split(':').length >= 3);
  }
}

const TYPES: readonly BatchType[] = ['email', 'phone', 'ip'];
const looksLikeAny = (value: string) => TYPES.some((type) => looksLike(type, value));

/**
 * The records of `text` (RFC 4180, as the server reads a batch file: commas, quotes that may
 * hold commas, `""` and line breaks, padding around a field ignored), wholly empty lines
 * skipped. Stops after `max` records.
 */
export function parseRecords(text: string, max: number): string[][] {
  const records: string[][] = [];
  let i = 0;
  const n = text.length;
  while (i < n && records.length < max) {
    if (text[i] === '\n' || text[i] === '\r') {
      i++;
      continue;
    }
    const cells: string[] = [];
    for (;;) {
      let cell = '';
      while (text[i] === ' ' || text[i] === '\t') i++;
      if (text[i] === '"') {
        i++;
        for (;;) {
          const close = text.indexOf('"', i);
          if (close < 0) {
            cell += text.slice(i);
            i = n;
            break;
          }
          cell += text.slice(i, close);
          i = close + 1;
          if (text[i] !== '"') break;
          cell += '"';
          i++;
        }
        while (i < n && !',\r\n'.includes(text[i])) i++;
      } else {
        const start = i;
        while (i < n && !',\r\n'.includes(text[i])) i++;
        cell = text.slice(start, i);
      }
      cells.push(cell.trim());
      if (text[i] !== ',') break;
      i++;
    }
    if (text[i] === '\r' && text[i + 1] === '\n') i++;
    i++;
    records.push(cells);
  }
  return records;
}

/** Whether a first record is a header: the single-column file's names, else no cell a value. */
function isHeader(first: readonly string[]): boolean {
  if (first.length === 1) {
    const name = first[0].toLowerCase();
    return TYPES.some((type) => (BATCH_HEADER_NAMES[type] as readonly string[]).includes(name));
  }
  return first.some((cell) => cell !== '') && !first.some(looksLikeAny);
}

/**
 * Reads the first PREVIEW_BYTES of `file`: its first records, whether it opens with a header,
 * and its rows (counted when the file was read whole, else estimated from the bytes per record
 * of the part read). A record cut by the end of the part read is left out.
 */
export async function previewFile(file: Blob): Promise<FilePreview> {
  const bytes = new Uint8Array(await file.slice(0, PREVIEW_BYTES).arrayBuffer());
  const complete = file.size <= PREVIEW_BYTES;
  let end = bytes.length;
  if (!complete) {
    const lastBreak = Math.max(bytes.lastIndexOf(0x0a), bytes.lastIndexOf(0x0d));
    end = lastBreak < 0 ? bytes.length : lastBreak + 1;
  }
  const text = new TextDecoder().decode(bytes.subarray(0, end)).replace(/^\uFEFF/, '');
  const all = parseRecords(text, Number.MAX_SAFE_INTEGER);
  const first = all[0] ?? [];
  const header = first.length > 0 && isHeader(first);
  const single = first.length === 1;
  // The single-column file: a line whose value is empty is no row.
  const rowsRead = all.filter((r, i) => !(i === 0 && header) && !(single && r[0] === '')).length;
  const perRecord = all.length === 0 ? 0 : end / all.length;
  const rows = complete
    ? rowsRead
    : Math.max(rowsRead, Math.round(file.size / perRecord) - (header ? 1 : 0));
  return {
    records: all.slice(0, 1 + PREVIEW_ROWS),
    width: first.length,
    header,
    rowsRead,
    complete,
    rows,
  };
}

/**
 * The column to check for `type`, 0-based: the first whose header is one of the type's names,
 * else the first whose values (in the records read) mostly look like the type's, else null.
 */
export function guessColumn(preview: FilePreview, type: BatchType): number | null {
  const names: readonly string[] = BATCH_HEADER_NAMES[type];
  if (preview.header) {
    const header = preview.records[0].map((cell) => cell.toLowerCase().replace(/[\s-]+/g, '_'));
    const exact = header.findIndex((name) => names.includes(name));
    if (exact >= 0) return exact;
    // `Customer Email`, `mobile_no`: a name that holds one of the type's longer names.
    const holds = header.findIndex((name) => names.some((n) => n.length >= 4 && name.includes(n)));
    if (holds >= 0) return holds;
  }
  const rows = preview.header ? preview.records.slice(1) : preview.records;
  let best: number | null = null;
  let bestCount = 0;
  for (let col = 0; col < preview.width; col++) {
    const count = rows.filter((r) => looksLike(type, r[col] ?? '')).length;
    if (count > bestCount && count * 2 >= rows.length) {
      best = col;
      bestCount = count;
    }
  }
  return best;
}
