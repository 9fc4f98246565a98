/** One frame of a perf sample: the symbol and the object it is in. */
export interface PerfFrame {
  sym: string;
  dso: string;
}

/** One sample of `perf script -F tid,ip,sym,dso`: its thread and its frames, innermost first. */
export interface PerfSample {
  tid: number;
  frames: PerfFrame[];
}

/** A row of a split: the samples that count for it (each sample at most once). */
export interface PerfGroup {
  label: string;
  matches: (sample: PerfSample) => boolean;
}

/** Where a process's samples went: a share (0..1) of all samples per group and per own function. */
export interface PerfSplit {
  samples: number;
  groups: Map<string, number>;
  /** The samples with a frame of the process's own code anywhere on the stack. */
  ownCode: number;
  /**
   * Per own function: each sample counts for the own frame nearest the sampled one (what the
   * own code was doing, with the library and kernel work it called).
   */
  ownFunctions: Map<string, number>;
}

/** The object perf names for kernel frames. */
export const KERNEL = '[kernel.kallsyms]';

const SAMPLE_HEAD = /^\s*(\d+)\s*$/;
// `<address> <symbol> (<object>)`; a C++ symbol may itself hold spaces and parentheses.
const FRAME = /^\s*[0-9a-f]+ (.*) \(([^()]*)\)$/;

/**
 * Reads the text of `perf script -F tid,ip,sym,dso` (a line with the thread id, then one
 * tab-indented line per frame, innermost first, then a blank line) into samples.
 */
export async function readPerfSamples(
  lines: AsyncIterable<string> | Iterable<string>,
): Promise<PerfSample[]> {
  const samples: PerfSample[] = [];
  let current: PerfSample | null = null;
  for await (const line of lines) {
    const head = SAMPLE_HEAD.exec(line);
    if (head) {
      current = { tid: Number(head[1]), frames: [] };
      samples.push(current);
      continue;
    }
    const frame = FRAME.exec(line);
    if (frame && current) current.frames.push({ sym: frame[1], dso: frame[2] });
    else if (line.trim() === '') current = null;
  }
  return samples;
}

/**
 * Splits `samples` into `groups` (inclusive: a sample counts for every group it matches) and
 * into the process's own functions: the frames whose symbol matches `ownCode` (JavaScript
 * frames carry their script's path when node runs with --perf-basic-prof).
 */
export function splitPerfSamples(
  samples: readonly PerfSample[],
  groups: readonly PerfGroup[],
  ownCode: RegExp,
): PerfSplit {
  const counts = new Map<string, number>(groups.map((g) => [g.label, 0]));
  const own = new Map<string, number>();
  let ownCount = 0;
  for (const sample of samples) {
    for (const group of groups) {
      if (group.matches(sample)) counts.set(group.label, (counts.get(group.label) ?? 0) + 1);
    }
    const nearest = sample.frames.find((f) => ownCode.test(f.sym));
    if (!nearest) continue;
    ownCount++;
    const label = jsFrameLabel(nearest.sym);
    own.set(label, (own.get(label) ?? 0) + 1);
  }
  const share = (n: number) => (samples.length === 0 ? 0 : n / samples.length);
  return {
    samples: samples.length,
    groups: new Map([...counts].map(([label, n]) => [label, share(n)])),
    ownCode: share(ownCount),
    ownFunctions: new Map([...own].map(([label, n]) => [label, share(n)])),
  };
}

/**
 * A JavaScript frame as node's perf map names it (`JS:*'name /abs/dist/path.js:line:col`, the
 * mark after `JS:` telling the tier) shortened to `name path.js:line`, the path from `dist/` on.
 */
export function jsFrameLabel(sym: string): string {
  const match = /^JS:[*~^+]?'?(.*?) ?(\S+):(\d+):\d+$/.exec(sym);
  if (!match) return sym;
  const [, name, path, line] = match;
  const at = path.lastIndexOf('/dist/');
  return `${name || '(anonymous)'} ${at >= 0 ? path.slice(at + '/dist/'.length) : path}:${line}`;
}

/** Whether any frame of `sample` is `sym`. */
export function hasFrame(sample: PerfSample, sym: string): boolean {
  return sample.frames.some((f) => f.sym === sym);
}
