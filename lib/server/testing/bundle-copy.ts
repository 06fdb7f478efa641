// A second copy of a module, as Next.js makes one per route bundle: the same source in another file,
// its imports pointed back at the originals (relative ones by path, packages as the original resolves
// them), so that only the module's own state is doubled. A test loads one to see that state meant to
// be shared by the whole process is.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function bundleCopy<T>(file: string): Promise<T> {
  const from = dirname(file);
  const require = createRequire(file);
  const pointBack = (spec: string): string => {
    if (spec.startsWith('./') || spec.startsWith('../')) return resolve(from, spec);
    // Built-ins and the project's own alias resolve the same from anywhere.
    if (spec.startsWith('node:') || spec.startsWith('@/')) return spec;
    try {
      return require.resolve(spec);
    } catch {
      return spec;
    }
  };
  const source = readFileSync(file, 'utf8').replace(
    /(from\s+|import\s*\(\s*)(['"])([^'"]+)\2/g,
    (_, lead: string, quote: string, spec: string) => `${lead}${quote}${pointBack(spec)}${quote}`,
  );
  const copy = join(mkdtempSync(join(tmpdir(), 'olm-bundle-copy-')), basename(file));
  writeFileSync(copy, source);
  return (await import(pathToFileURL(copy).href)) as T;
}
