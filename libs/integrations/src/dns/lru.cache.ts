/** One cached value, linked into the recency list. */
interface Node<V> {
  key: string;
  value: V;
  expiresAt: number;
  /** Towards the least recently used end. */
  older: Node<V> | null;
  /** Towards the most recently used end. */
  newer: Node<V> | null;
}

/**
 * A bounded map with per-entry expiry; the least recently used entry goes first when full.
 * A hit is one Map lookup, one clock read and at most four pointer moves: the Map itself is
 * never written on a read (re-inserting into a Map on every hit made `get` the scorer's top
 * function), and nothing is allocated. Expired entries are dropped when read or evicted.
 */
export class LruTtlCache<V> {
  private readonly entries = new Map<string, Node<V>>();
  /** Least recently used (evicted first) and most recently used ends of the list. */
  private oldest: Node<V> | null = null;
  private newest: Node<V> | null = null;

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const node = this.entries.get(key);
    if (node === undefined) return undefined;
    if (node.expiresAt <= this.now()) {
      this.entries.delete(key);
      this.unlink(node);
      return undefined;
    }
    if (node !== this.newest) {
      this.unlink(node);
      this.append(node);
    }
    return node.value;
  }

  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) return;
    const expiresAt = this.now() + ttlMs;
    const existing = this.entries.get(key);
    if (existing !== undefined) {
      existing.value = value;
      existing.expiresAt = expiresAt;
      if (existing !== this.newest) {
        this.unlink(existing);
        this.append(existing);
      }
      return;
    }
    const node: Node<V> = { key, value, expiresAt, older: null, newer: null };
    this.entries.set(key, node);
    this.append(node);
    while (this.entries.size > this.maxEntries && this.oldest !== null) {
      const evicted = this.oldest;
      this.entries.delete(evicted.key);
      this.unlink(evicted);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
    this.oldest = null;
    this.newest = null;
  }

  private unlink(node: Node<V>): void {
    if (node.older !== null) node.older.newer = node.newer;
    else this.oldest = node.newer;
    if (node.newer !== null) node.newer.older = node.older;
    else this.newest = node.older;
    node.older = null;
    node.newer = null;
  }

  private append(node: Node<V>): void {
    node.older = this.newest;
    if (this.newest !== null) this.newest.newer = node;
    else this.oldest = node;
    this.newest = node;
  }
}
