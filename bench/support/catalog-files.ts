// Reading catalog folders into memory, and the shared catalogs' location, for benchmarks.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sharedCatalogs, sharedCatalogsAvailable } from '../../lib/testing/shared-catalogs';

export { sharedCatalogs };

// Every benchmark that imports this measures the real catalogs, so it stops here without them.
if (!sharedCatalogsAvailable) {
  console.error(
    `bench: needs the real published catalogs at ${sharedCatalogs} (../shared/catalogs beside the checkout, or OLM_CONSOLE_SHARED_CATALOGS); they are absent, nothing measured`,
  );
  process.exit(1);
}

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
