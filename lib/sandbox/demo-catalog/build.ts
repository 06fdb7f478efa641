// Writes the project's demo catalog (FBC) into lib/sandbox/demo-catalog/catalog/. The YAML files
// there are the product; this script is how they are made, and running it again reproduces them
// byte for byte: `node --import tsx lib/sandbox/demo-catalog/build.ts`.
// Every operator here is fictional; names, descriptions, icons and images were written for
// olm-console to exercise what the console shows (see README.md beside this file).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { blobsFor } from './fbc-blobs';
import { DEMO_CATALOG_DIR } from './location';
import { packages } from './packages';

/** Writes every package's catalog.yaml under `out` (replacing what is there). */
export function buildDemoCatalog(out: string): number {
  rmSync(out, { recursive: true, force: true });
  for (const p of packages) {
    mkdirSync(join(out, p.name), { recursive: true });
    const text = blobsFor(p)
      .map((b) => `---\n${yaml.dump(b, { lineWidth: -1, noRefs: true, sortKeys: false })}`)
      .join('');
    writeFileSync(join(out, p.name, 'catalog.yaml'), text);
  }
  return packages.length;
}

if (process.argv[1] && /demo-catalog[\\/]build\.ts$/.test(process.argv[1])) {
  console.log(`wrote ${buildDemoCatalog(DEMO_CATALOG_DIR)} packages to ${DEMO_CATALOG_DIR}`);
}
