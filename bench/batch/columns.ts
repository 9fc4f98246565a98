// The multi-column case of the batch benchmark: the email file's rows inside a CRM-like export
// (`name,email,company,country`, some cells quoted), validated with `column=email`, against the
// single-column email file of the same rows, both on the same warm process.
import { cpuSnapshot, cpuUsed } from './cpu';
import { countResultLines, runJob } from './client';
import { emailRow, writeRows } from './inputs';

const COMPANIES = ['Acme', 'Globex, Inc.', 'Initech', 'Umbrella "Health" Ltd', 'Stark'];
const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'JP', 'BR'];

/** Row i of the CRM file: the email file's row i between a name, a company and a country. */
export function crmRow(i: number): string {
  const email = emailRow(i);
  const name = i % 4 === 0 ? `"Smith, Jane ${i}"` : `Jane Smith ${i}`;
  const company = COMPANIES[i % COMPANIES.length];
  const quoted = /[",]/.test(company) ? `"${company.replace(/"/g, '""')}"` : company;
  return `${name},${email},${quoted},${COUNTRIES[i % COUNTRIES.length]}`;
}

/** Writes the CRM file of `rows` rows (plus its header line); returns its size in bytes. */
export function writeCrm(path: string, rows: number): Promise<number> {
  return writeRows(path, rows + 1, (i) => (i === 0 ? 'name,email,company,country' : crmRow(i - 1)));
}

/** CPU-seconds per million rows of `pid` for the single-column and the CRM email job. */
export interface ColumnsCost {
  rows: number;
  single: number;
  multi: number;
}

/**
 * Runs the single-column email file, then the CRM file with `column=email`, on the process
 * `pid` serves (its DNS cache warm from the earlier email job for both), and reads the CPU
 * that process used for each.
 */
export async function compareColumns(
  base: string,
  apiKey: string,
  files: { email: string; crm: string },
  pid: number,
): Promise<ColumnsCost> {
  const perMillion = async (path: string, fields: Record<string, string>) => {
    const before = await cpuSnapshot({ p: pid });
    const t = await runJob(base, apiKey, 'email', path, 1_800_000, fields);
    const used = cpuUsed(before, await cpuSnapshot({ p: pid })).get('p') ?? 0;
    const lines = await countResultLines(t.resultUrl);
    if (lines !== t.rows + 1) throw new Error(`${path}: ${lines} result lines for ${t.rows} rows`);
    return { rows: t.rows, cpu: (used / t.rows) * 1e6 };
  };
  const single = await perMillion(files.email, {});
  const multi = await perMillion(files.crm, { column: 'email' });
  if (multi.rows !== single.rows)
    throw new Error(`CRM job has ${multi.rows} rows, not ${single.rows}`);
  return { rows: single.rows, single: single.cpu, multi: multi.cpu };
}
