// The two caches of things the registry serves one bundle at a time: full CSVs (GetBundle) for
// the details pages, and package icons for the tiles. Both are bounded, oldest out first; a
// failed fetch is never kept, so the next request asks again.
import type { IconBytes } from './registry-read';

const MAX_CACHED_BUNDLES = 300;
/**
 * And at most this many characters of CSVs: descriptions are capped (bundle-caps.ts), but a CSV
 * also carries its icon, examples and CRD descriptions. The largest CSV in ../shared/catalogs is
 * 0.5 MB, most are under 50 KB.
 */
const MAX_CACHED_CSV_CHARS = 64 * 1024 * 1024;

/** Full CSVs by `address|package|channel|csvName`; null is a bundle known to have none. */
export class CsvCache {
  private readonly csvs = new Map<string, Record<string, unknown> | null>();
  private readonly chars = new Map<string, number>();
  private charsTotal = 0;

  /** Whether the key is known, with or without a value. */
  has(key: string): boolean {
    return this.csvs.has(key);
  }

  /** What is kept for the key. */
  get(key: string): Record<string, unknown> | null | undefined {
    return this.csvs.get(key);
  }

  /** Keeps a CSV (capped already) of about `chars` characters; the oldest go past either bound. */
  remember(key: string, csv: Record<string, unknown> | null, chars: number): Record<string, unknown> | null {
    this.charsTotal -= this.chars.get(key) ?? 0;
    this.csvs.delete(key);
    this.csvs.set(key, csv);
    this.chars.set(key, chars);
    this.charsTotal += chars;
    while (this.csvs.size > 1 && (this.csvs.size > MAX_CACHED_BUNDLES || this.charsTotal > MAX_CACHED_CSV_CHARS)) {
      const oldest = this.csvs.keys().next().value!;
      this.csvs.delete(oldest);
      this.charsTotal -= this.chars.get(oldest) ?? 0;
      this.chars.delete(oldest);
    }
    return csv;
  }
}

/** Package icons by `namespace/catalog|address|package`; null is a package known to have none. */
export class IconCache {
  private readonly icons = new Map<string, IconBytes | null>();

  /** Whether the key is known, with or without a value. */
  has(key: string): boolean {
    return this.icons.has(key);
  }

  /** What is kept for the key. */
  get(key: string): IconBytes | null | undefined {
    return this.icons.get(key);
  }

  /** Keeps an icon; past the bound the oldest goes. */
  remember(key: string, icon: IconBytes | null): IconBytes | null {
    this.icons.set(key, icon);
    if (this.icons.size > MAX_CACHED_BUNDLES) this.icons.delete(this.icons.keys().next().value!);
    return icon;
  }
}
