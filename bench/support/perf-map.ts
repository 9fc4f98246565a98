import { readFile, writeFile } from 'node:fs/promises';

/** One line of a perf map: `<start hex> <size hex> <name>`. */
interface MapEntry {
  start: number;
  end: number;
  line: string;
}

/**
 * The lines of a perf map (/tmp/perf-<pid>.map, which node writes with --perf-basic-prof)
 * without those a later line overlaps. V8 frees code (boot code, discarded optimisations) and
 * compiles new code at the same addresses, and the map only ever grows: perf would name a
 * sample in today's code after whichever of the two it picked. The later line is the code
 * that lives there now.
 */
export function latestMapLines(lines: readonly string[]): string[] {
  const kept: MapEntry[] = []; // sorted by start, non-overlapping
  for (let i = lines.length - 1; i >= 0; i--) {
    const entry = parseMapLine(lines[i]);
    if (!entry) continue;
    // The first kept entry ending after this one's start is the only one it could overlap.
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (kept[mid].end <= entry.start) lo = mid + 1;
      else hi = mid;
    }
    if (lo < kept.length && kept[lo].start < entry.end) continue;
    kept.splice(lo, 0, entry);
  }
  return kept.map((e) => e.line);
}

function parseMapLine(line: string): MapEntry | null {
  const match = /^([0-9a-fA-F]+) ([0-9a-fA-F]+) /.exec(line);
  if (!match) return null;
  const start = Number.parseInt(match[1], 16);
  return { start, end: start + Number.parseInt(match[2], 16), line };
}

/** Rewrites /tmp/perf-<pid>.map with {@link latestMapLines}; nothing to do when it is missing. */
export async function keepLatestMapLines(pid: number): Promise<void> {
  const path = `/tmp/perf-${pid}.map`;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return;
  }
  await writeFile(path, `${latestMapLines(text.split('\n')).join('\n')}\n`);
}
