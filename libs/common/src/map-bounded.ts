/**
 * Maps `items` with at most `limit` calls of `fn` in flight; the results keep the input order.
 * `onDone` is told each time a call finishes; a `signal` that aborts stops starting new calls
 * and rejects with its reason.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  options: { onDone?: () => void; signal?: AbortSignal } = {},
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      options.signal?.throwIfAborted();
      const i = next++;
      out[i] = await fn(items[i], i);
      options.onDone?.();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
