import type { Ipv6Words } from '@verity/validation';

/** What the tree walk needs from an MMDB file's metadata (MaxMind DB format spec §"Search tree"). */
export interface MmdbTreeShape {
  readonly nodeCount: number;
  readonly recordSize: number;
  readonly ipVersion: number;
}

/** Not found: the walk ended on the "no data" marker (record value == node count). */
export const MMDB_NOT_FOUND = -1;

/**
 * The binary search tree of a MaxMind DB file, walked directly on an already-parsed address.
 * The maxmind reader's `get(text)` re-parses the address text into a byte array and reads
 * each node through a closure; this walk takes the uint32 / four-word form that parseIp has
 * already produced and reads node records inline. It returns the record value (a data-section
 * pointer, > nodeCount), which the reader then decodes. Semantics follow mmdb-lib's
 * findAddressInTree exactly (checked against it in mmdb.tree.spec.ts).
 */
export class MmdbTree {
  private readonly nodeCount: number;
  private readonly recordSize: number;
  private readonly nodeBytes: number;
  private readonly treeBytes: number;
  /** Node where IPv4 lookups start: 0 in an IPv4 tree, the node at ::/96 in an IPv6 tree. */
  private readonly ipv4Start: number;
  private readonly corrupt: boolean;

  constructor(
    private readonly db: Uint8Array,
    shape: MmdbTreeShape,
  ) {
    const { nodeCount, recordSize } = shape;
    if (recordSize !== 24 && recordSize !== 28 && recordSize !== 32)
      throw new Error(`unsupported MMDB record size ${recordSize}`);
    this.nodeCount = nodeCount;
    this.recordSize = recordSize;
    this.nodeBytes = recordSize / 4;
    this.treeBytes = nodeCount * this.nodeBytes;
    // A tree claiming more nodes than the file holds is corrupt; the reader still opens (its
    // metadata parses), so the file shows as loaded and every lookup fails as a 503.
    this.corrupt = this.treeBytes > db.length;
    let node = 0;
    if (shape.ipVersion === 6 && !this.corrupt) {
      for (let i = 0; i < 96 && node < nodeCount; i++) node = this.record(node, 0);
    }
    this.ipv4Start = node;
  }

  /** One of the two records of a node (bit 0 = left, 1 = right). */
  private record(node: number, bit: number): number {
    const db = this.db;
    const o = node * this.nodeBytes;
    if (this.recordSize === 24) {
      const p = bit === 0 ? o : o + 3;
      return db[p] * 65536 + db[p + 1] * 256 + db[p + 2];
    }
    if (this.recordSize === 28) {
      // 28-bit records share the middle byte: its high nibble tops the left record, low the right.
      const mid = db[o + 3];
      if (bit === 0) return (mid >>> 4) * 16777216 + db[o] * 65536 + db[o + 1] * 256 + db[o + 2];
      return (mid & 15) * 16777216 + db[o + 4] * 65536 + db[o + 5] * 256 + db[o + 6];
    }
    const p = bit === 0 ? o : o + 4;
    return db[p] * 16777216 + db[p + 1] * 65536 + db[p + 2] * 256 + db[p + 3];
  }

  /** Record value for an IPv4 address (uint32), or MMDB_NOT_FOUND. */
  findV4(v4: number): number {
    if (this.corrupt) throw new Error('MMDB search tree larger than the file');
    const nodeCount = this.nodeCount;
    let node = this.ipv4Start;
    for (let depth = 0; depth < 32 && node < nodeCount; depth++) {
      node = this.record(node, (v4 >>> (31 - depth)) & 1);
    }
    return this.result(node);
  }

  /** Record value for an IPv6 address, or MMDB_NOT_FOUND. Only valid on an IPv6 tree. */
  findV6(w: Ipv6Words): number {
    if (this.corrupt) throw new Error('MMDB search tree larger than the file');
    const nodeCount = this.nodeCount;
    let node = 0;
    for (let depth = 0; depth < 128 && node < nodeCount; depth++) {
      node = this.record(node, (w[depth >>> 5] >>> (31 - (depth & 31))) & 1);
    }
    return this.result(node);
  }

  private result(node: number): number {
    if (node <= this.nodeCount) return MMDB_NOT_FOUND;
    // A pointer into the tree region itself (or anything NaN from a truncated file) is corrupt.
    if (!(node - this.nodeCount + this.treeBytes < this.db.length))
      throw new Error('MMDB record points outside the data section');
    return node;
  }
}
