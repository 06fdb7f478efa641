// Whether the real cluster's programs are built: the tests that start `npm run cluster` skip
// with this reason rather than build them (cluster/build.sh takes minutes, and a test that
// silently compiled Kubernetes would be a surprise).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

/**
 * Why the programs cluster/build.sh would start cannot be started, or undefined when they can:
 * the real cluster's (`paths`), or Open Cluster Management's for a fleet (`ocm-paths`).
 */
export function clusterProgramsMissing(which: 'paths' | 'ocm-paths' = 'paths'): string | undefined {
  const r = spawnSync('bash', [join(root, 'cluster', 'build.sh'), which], { encoding: 'utf8' });
  if (r.status !== 0) return `cluster/build.sh ${which} failed: ${r.stderr || r.error?.message}`;
  const missing = r.stdout
    .trim()
    .split('\n')
    .map((l) => l.split('=')[1]!)
    .filter((p) => !existsSync(p));
  if (missing.length)
    return `not built (run cluster/build.sh${which === 'paths' ? '' : ' ocm'}): ${missing.join(', ')}`;
  return undefined;
}
