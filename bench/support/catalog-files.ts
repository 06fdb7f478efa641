// Reading catalog folders into memory, and the shared catalogs' location, for benchmarks.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const sharedCatalogs = join(import.meta.dirname, '..', '..', '..', 'shared', 'catalogs');

/** Every JSON/YAML file below `root`, as (relative name, text). */
export function readTexts(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(json|ya?ml)$/i.test(e.name)) out[relative(root, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(root);
  return out;
}
