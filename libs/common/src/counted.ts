/** A count and its noun, pluralised for it, for log lines: "1 chunk", "3 chunks", "0 chunks". */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
