import { CREDIT_COST } from '@verity/contracts/credits';
import { formatNumber } from '../format';
import { PREVIEW_BYTES, PREVIEW_ROWS, type FilePreview } from './file-preview';

const KIB = 1024;

function formatBytes(n: number): string {
  if (n < KIB) return `${formatNumber(n)} bytes`;
  if (n < KIB * KIB) return `${formatNumber(Math.round(n / KIB))} KiB`;
  return `${(n / KIB / KIB).toLocaleString('en-US', { maximumFractionDigits: 1 })} MiB`;
}

const rowsWord = (n: number) => (n === 1 ? 'row' : 'rows');
const creditsWord = (n: number) => (n === 1 ? 'credit' : 'credits');

/**
 * The chosen file before it is uploaded: the Column choice of a multi-column file (its header's
 * names, the guess preselected) and whether its first line is a header, its first rows with the
 * chosen column marked, and the cost: exact when the browser read the whole file, else an
 * estimate from the part it read (the job counts the rows when it is created).
 */
export function UploadPreview({
  name,
  size,
  preview,
  column,
  header,
  onColumn,
  onHeader,
}: {
  name: string;
  size: number;
  preview: FilePreview;
  column: number | null;
  header: boolean;
  onColumn: (column: number | null) => void;
  onHeader: (header: boolean) => void;
}) {
  const multi = preview.width > 1;
  const first = preview.records[0] ?? [];
  const rows = preview.records.slice(header ? 1 : 0, (header ? 1 : 0) + PREVIEW_ROWS);
  const titles = first.map((cell, i) => (header && cell !== '' ? cell : `Column ${i + 1}`));
  const headerRows = header ? 1 : 0;
  // A header the user says is none becomes a row, and the other way round.
  const total =
    (preview.complete ? preview.rowsRead : preview.rows) + (preview.header ? 1 : 0) - headerRows;
  const credits = total * CREDIT_COST.batch_row;
  return (
    <div class="upload-preview" data-preview>
      {multi ? (
        <>
          <label for="batch-column">Column to check</label>
          <select
            id="batch-column"
            name="column"
            required
            value={column === null ? '' : String(column)}
            onChange={(e) =>
              onColumn(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))
            }
          >
            <option value="">Choose the column…</option>
            {titles.map((title, i) => (
              <option key={i} value={String(i)}>
                {title}
                {rows[0]?.[i] ? ` (e.g. ${rows[0][i]})` : ''}
              </option>
            ))}
          </select>
          <label class="check">
            <input
              type="checkbox"
              name="header"
              checked={header}
              onChange={(e) => onHeader(e.currentTarget.checked)}
            />{' '}
            The first line is a header (not a row, not charged)
          </label>
        </>
      ) : (
        <p class="hint">One column: each line is a value to check.</p>
      )}
      <div class="table-wrap">
        <table aria-label={`First rows of ${name}`}>
          <thead>
            <tr>
              {titles.map((title, i) => (
                <th key={i} scope="col" class={i === column ? 'chosen' : undefined}>
                  {title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((record, r) => (
              <tr key={r} data-preview-row>
                {titles.map((_, i) => (
                  <td key={i} class={i === column ? 'chosen' : undefined}>
                    {record[i] ?? ''}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p data-cost={credits} data-estimate={preview.complete ? undefined : ''}>
        {preview.complete ? (
          <>
            {formatNumber(total)} {rowsWord(total)}: <strong>{formatNumber(credits)}</strong>{' '}
            {creditsWord(credits)} ({CREDIT_COST.batch_row} per row), charged when the job starts.
          </>
        ) : (
          <>
            About {formatNumber(total)} rows: about <strong>{formatNumber(credits)}</strong> credits
            ({CREDIT_COST.batch_row} per row), estimated from the first {formatBytes(PREVIEW_BYTES)}{' '}
            of {formatBytes(size)}; the job counts the rows and is charged for them when it starts.
          </>
        )}
      </p>
    </div>
  );
}
