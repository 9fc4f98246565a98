import { z } from 'zod';
import { ALL_BATCH_VERDICTS, BATCH_RESULT_FIELDS, BATCH_TYPES, KEY_MODES } from '@verity/contracts';
import { parseChunkJson } from './chunk-message.reader';

// Messages on the row bus are JSON. They are parsed with zod on receipt: a malformed message
// (another version, a stray producer) is reported and skipped instead of blocking a partition.

const chunkMessage = z.object({
  v: z.literal(1),
  jobId: z.string().min(1),
  type: z.enum(BATCH_TYPES),
  /** The job's mode; absent means live (a test job's rows go to the test engines). */
  mode: z.enum(KEY_MODES).optional(),
  /** The job's result columns; absent means `spec`. */
  fields: z.enum(BATCH_RESULT_FIELDS).optional(),
  /**
   * `lines`: a multi-column job's rows, as value, raw input line, value, raw input line, …
   * (docs/batch.md, "Multi-column files"); absent: one value per row.
   */
  layout: z.literal('lines').optional(),
  /** The job asked for the SMTP mailbox probe (`smtp=true`, docs/models/email.md). */
  smtp: z.literal(true).optional(),
  /** A phone job's `country_hint`: the country of every row without one of its own. */
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .optional(),
  /**
   * A phone job's `country_column` (0-based), with `layout: "lines"`: each row's country is
   * that cell of its line (docs/batch.md, "Phone numbers and their country").
   */
  countryColumn: z.number().int().min(0).optional(),
  /**
   * A copy of the chunk sent back for another round of the SMTP retry window: asked no earlier
   * than `notBefore`, and its last round no later than `until` (epoch ms).
   */
  retry: z
    .object({
      round: z.number().int().min(1),
      notBefore: z.number().int().min(0),
      until: z.number().int().min(0),
    })
    .optional(),
  chunkNo: z.number().int().min(0),
  firstRow: z.number().int().min(0),
  rows: z.array(z.string()),
});

/** A chunk message as it goes on the row bus. */
export type ChunkWire = z.infer<typeof chunkMessage>;

/**
 * One chunk of input rows, splitter → scorer, as decoded: `rows` holds one value per row
 * whatever the layout, and `lines` (a multi-column job's) the raw input line of each row.
 */
export type ChunkMessage = Omit<ChunkWire, 'layout'> & { lines?: string[] };

const progressMessage = z.discriminatedUnion('kind', [
  // The splitter emitted every chunk: there are `chunks` of them.
  z.object({
    v: z.literal(1),
    kind: z.literal('split'),
    jobId: z.string().min(1),
    chunks: z.number().int().min(1),
  }),
  // A scorer stored the part of chunk `chunkNo` (`rows` rows), its rows counted by verdict
  // (`verdicts`; absent from a scorer of a release before job summaries: the job then gets none).
  z.object({
    v: z.literal(1),
    kind: z.literal('chunk'),
    jobId: z.string().min(1),
    chunkNo: z.number().int().min(0),
    rows: z.number().int().min(1),
    verdicts: z.partialRecord(z.enum(ALL_BATCH_VERDICTS), z.number().int().min(0)).optional(),
  }),
  // A scorer has scored `rows` rows of chunk `chunkNo` so far (at most once a second per chunk).
  z.object({
    v: z.literal(1),
    kind: z.literal('chunk_progress'),
    jobId: z.string().min(1),
    chunkNo: z.number().int().min(0),
    rows: z.number().int().min(1),
  }),
  // A chunk kept failing past its delivery budget: the job fails.
  z.object({
    v: z.literal(1),
    kind: z.literal('chunk_failed'),
    jobId: z.string().min(1),
    chunkNo: z.number().int().min(0),
    reason: z.string(),
  }),
]);

/** A report to the assembler. */
export type ProgressMessage = z.infer<typeof progressMessage>;

/** Serialises a bus message. */
export function encodeMessage(message: ChunkWire | ProgressMessage): Buffer {
  return Buffer.from(JSON.stringify(message));
}

/** Parses a chunk message; null if it is not one. */
export function decodeChunk(value: Buffer): ChunkMessage | null {
  const wire = parse(chunkMessage, value, parseChunkJson);
  if (wire === null) return null;
  const { layout, rows, ...head } = wire;
  if (layout === undefined) return wire;
  if (rows.length % 2 !== 0) return null;
  const values = new Array<string>(rows.length / 2);
  const lines = new Array<string>(rows.length / 2);
  for (let i = 0; i < values.length; i++) {
    values[i] = rows[2 * i];
    lines[i] = rows[2 * i + 1];
  }
  return { ...head, rows: values, lines };
}

/** Parses a progress message; null if it is not one. */
export function decodeProgress(value: Buffer): ProgressMessage | null {
  return parse(progressMessage, value);
}

function parse<T>(
  schema: z.ZodType<T>,
  value: Buffer,
  json: (value: Buffer) => unknown = (v) => JSON.parse(v.toString('utf8')),
): T | null {
  try {
    const result = schema.safeParse(json(value));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}
