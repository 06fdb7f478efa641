// `npm run bench`: runs every bench/*.bench.ts in turn, in its own process, so that one
// benchmark's heap does not weigh on the next. Each prints its own figures.
// `npm run bench -- fbc` runs only the benchmarks whose file name contains "fbc"; a filter that is a
// benchmark's whole name (`cold-read`) runs that one alone, not `cold-read-server` beside it.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = import.meta.dirname;
const filters = process.argv.slice(2);
const all = readdirSync(dir).filter((f) => f.endsWith('.bench.ts'));
const matches = (p: string, f: string) => (all.includes(`${p}.bench.ts`) ? f === `${p}.bench.ts` : f.includes(p));
const files = all.filter((f) => filters.length === 0 || filters.some((p) => matches(p, f))).sort();

let failed = 0;
for (const file of files) {
  console.log(`\n### ${file}`);
  const res = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(dir, file)], { stdio: 'inherit' });
  if (res.status !== 0) {
    failed++;
    console.log(`!!! ${file} exited with ${res.status ?? res.signal}`);
  }
}
if (files.length === 0) console.log('no benchmarks matched');
process.exit(failed ? 1 : 0);
