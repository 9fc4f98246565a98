// `npm run build --silent && node dist/bench/batch/csv-paths.js`: CPU and rows/s of each way the
// batch engine reads and writes CSV, in one run on the same in-memory files (1M email rows, or
// BENCH_SCALE × 1M, as the single-column file and as the 4-column CRM file of bench:batch, fed in
// 64 KiB buffers like a blob store stream; each path run BENCH_REPEAT times after a warm-up, the
// median printed). The figures behind docs/batch.md "Input file: one reader".
import { Readable } from 'node:stream';
import { format, parse } from 'fast-csv';
import {
  SINGLE_COLUMN,
  TableReader,
  tableFormat,
  JsonPairsCollector,
  encodeChunk,
  encodeMessage,
  JsonRowsCollector,
  formatResultRow,
  readChunks,
  readChunksInto,
} from '@verity/batch';
import type { EmailFields } from '@verity/contracts';
import { emailRow } from './inputs';
import { crmRow } from './columns';

const ROWS = Math.round(1_000_000 * Number(process.env.BENCH_SCALE ?? '1'));
const CHUNK_ROWS = 5_000;
const READ_SIZE = 64 * 1024;
const REPEAT = Number(process.env.BENCH_REPEAT ?? '5');
const CRM_FORMAT = tableFormat('email', undefined);
const JOB = '6f1c2b8e-0d7a-4b5e-9f00-1a2b3c4d5e6f';

function file(row: (i: number) => string, header?: string): Buffer {
  const lines: string[] = header === undefined ? [] : [header];
  for (let i = 0; i < ROWS; i++) lines.push(row(i));
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

function source(bytes: Buffer): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += READ_SIZE) parts.push(bytes.subarray(i, i + READ_SIZE));
  return Readable.from(parts);
}

const pad = (c: number) => c === 0x20 || c === 0x09;
function trim(v: string): string {
  let s = 0;
  let e = v.length;
  while (s < e && pad(v.charCodeAt(s))) s++;
  while (e > s && pad(v.charCodeAt(e - 1))) e--;
  return v.slice(s, e);
}

// The fast-csv split read, for comparison: records, trimmed, 5,000-row chunks, JSON messages.
async function fastCsvSplit(bytes: Buffer, encode: boolean): Promise<number> {
  const parser = parse<string[], string[]>({ headers: false, ignoreEmpty: false });
  source(bytes).pipe(parser);
  let rows: string[] = [];
  let n = 0;
  let chunkNo = 0;
  const flush = () => {
    if (encode) encodeMessage({ v: 1, jobId: JOB, type: 'email', chunkNo, firstRow: n, rows });
    n += rows.length;
    chunkNo++;
    rows = [];
  };
  for await (const record of parser as AsyncIterable<string[]>) {
    const value = trim(record[0] ?? '');
    if (value === '') continue;
    rows.push(value);
    if (rows.length === CHUNK_ROWS) flush();
  }
  if (rows.length > 0) flush();
  return n;
}

async function readerCount(bytes: Buffer): Promise<number> {
  const reader = new TableReader({ maxRows: Infinity, maxBytes: Infinity }, SINGLE_COLUMN);
  for await (const data of source(bytes)) reader.write(data as Buffer);
  return reader.end();
}

async function readerStrings(bytes: Buffer): Promise<number> {
  let n = 0;
  for await (const c of readChunks(source(bytes), CHUNK_ROWS)) {
    encodeMessage({ v: 1, jobId: JOB, type: 'email', ...c });
    n += c.rows.length;
  }
  return n;
}

async function tableCount(bytes: Buffer): Promise<number> {
  const reader = new TableReader({ maxRows: Infinity, maxBytes: Infinity }, CRM_FORMAT);
  for await (const data of source(bytes)) reader.write(data as Buffer);
  return reader.end();
}

async function tableSplit(bytes: Buffer): Promise<number> {
  let n = 0;
  const collector = new JsonPairsCollector();
  for await (const c of readChunksInto(source(bytes), CHUNK_ROWS, 0, CRM_FORMAT, collector)) {
    encodeChunk(JOB, 'email', c, 'live', { lines: true });
    n += c.rows.length;
  }
  return n;
}

async function readerSplit(bytes: Buffer): Promise<number> {
  let n = 0;
  for await (const c of readChunksInto(
    source(bytes),
    CHUNK_ROWS,
    0,
    SINGLE_COLUMN,
    new JsonRowsCollector(),
  )) {
    encodeChunk(JOB, 'email', c);
    n += c.rows.length;
  }
  return n;
}

function results(): EmailFields[] {
  const out: EmailFields[] = [];
  for (let i = 0; i < ROWS; i++) {
    out.push({
      input: emailRow(i),
      valid_syntax: true,
      mx_found: i % 7 !== 0,
      disposable: i % 25 === 0,
      score: (i % 100) / 100,
      deliverability: i % 7 === 0 ? 'undeliverable' : 'deliverable',
    } as EmailFields);
  }
  return out;
}

async function writeFormatResultRow(rows: EmailFields[]): Promise<number> {
  let bytes = 0;
  for (const r of rows) bytes += formatResultRow('email', r).length;
  return Promise.resolve(bytes > 0 ? rows.length : 0);
}

async function writeFastCsv(rows: EmailFields[]): Promise<number> {
  const stream = format<(string | number | boolean)[], (string | number | boolean)[]>({
    headers: false,
  });
  let bytes = 0;
  stream.on('data', (d: Buffer) => (bytes += d.length));
  const done = new Promise((resolve, reject) => stream.on('end', resolve).on('error', reject));
  for (const r of rows) {
    stream.write([r.input, r.valid_syntax, r.mx_found, r.disposable, r.score, r.deliverability, 1]);
  }
  stream.end();
  await done;
  return bytes > 0 ? rows.length : 0;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(label: string, run: () => Promise<number>): Promise<void> {
  await run(); // warm-up: JIT, buffers
  const walls: number[] = [];
  const cpus: number[] = [];
  let rows = 0;
  for (let k = 0; k < REPEAT; k++) {
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    rows = await run();
    walls.push(Number(process.hrtime.bigint() - t0) / 1e9);
    const cpu = process.cpuUsage(cpu0);
    cpus.push((cpu.user + cpu.system) / 1e6);
  }
  const cpuS = median(cpus);
  const perM = (cpuS * 1e6) / rows;
  console.log(
    `  ${label.padEnd(62)} ${Math.round(rows / median(walls))
      .toLocaleString('en-US')
      .padStart(10)} rows/s  ${cpuS.toFixed(3)} CPU-s  ${perM.toFixed(3)} CPU-s per M rows`,
  );
}

async function main(): Promise<void> {
  const bytes = file(emailRow);
  const crm = file(crmRow, 'name,email,company,country');
  const { loadavg } = await import('node:os');
  const mib = (b: Buffer) => `${(b.length / 2 ** 20).toFixed(1)} MiB`;
  console.log(
    `csv paths: ${ROWS.toLocaleString('en-US')} email rows (${mib(bytes)}; as the CRM file ${mib(crm)}), ` +
      `${READ_SIZE / 1024} KiB reads, median of ${REPEAT}, node ${process.version}, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  console.log('read (split):');
  await measure('fast-csv parse only', () => fastCsvSplit(bytes, false));
  await measure('fast-csv parse + chunks + encodeMessage (split before)', () =>
    fastCsvSplit(bytes, true),
  );
  await measure('TableReader, single-column file, count only (upload check)', () =>
    readerCount(bytes),
  );
  await measure('TableReader, single-column file, string chunks + encodeMessage', () =>
    readerStrings(bytes),
  );
  await measure('TableReader, single-column file, JSON rows + encodeChunk (split)', () =>
    readerSplit(bytes),
  );
  await measure('TableReader, CRM file, count only (upload check)', () => tableCount(crm));
  await measure('TableReader, CRM file, JSON pairs + encodeChunk (split)', () => tableSplit(crm));
  const rows = results();
  console.log('write (result rows):');
  await measure('formatResultRow (scorer parts)', () => writeFormatResultRow(rows));
  await measure('fast-csv format, same cells', () => writeFastCsv(rows));
}

void main();
