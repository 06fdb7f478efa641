// After `next build`: completes `.next/standalone` into the runtime folder the container image
// copies and `node server.mjs` runs on its own. Next.js traces what its pages and routes need;
// this adds the console's own server in front of them (bundled from lib/server/http/runtime.ts),
// the files that server needs that Next.js could not see (traced the same way, with
// @vercel/nft as Next.js ships it), and the static assets Next.js leaves out by design.
import { cpSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const out = join(root, '.next', 'standalone');
const require = createRequire(import.meta.url);

type NodeFileTrace = (
  files: string[],
  opts: { base: string; processCwd: string },
) => Promise<{ fileList: Set<string> }>;

async function main(): Promise<void> {
  if (!existsSync(join(out, '.next', 'BUILD_ID')))
    throw new Error('.next/standalone is missing: run `next build` first (next.config.js has output: standalone)');

  await build({
    entryPoints: [join(root, 'lib', 'server', 'http', 'runtime.ts')],
    // Built beside the checkout's node_modules first, so that the trace below resolves packages
    // there and not in the partial copy Next.js made.
    outfile: join(root, '.next', 'server.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'warning',
  });

  // pino starts transports (pino-pretty for LOG_FORMAT=pretty) by name in a worker thread,
  // which no tracer can follow from the bundle.
  const { nodeFileTrace } = require('next/dist/compiled/@vercel/nft') as { nodeFileTrace: NodeFileTrace };
  const traced = await nodeFileTrace(
    [join(root, '.next', 'server.mjs'), require.resolve('pino-pretty'), require.resolve('pino/file')],
    { base: root, processCwd: root },
  );
  let copied = 0;
  for (const rel of traced.fileList) {
    // Next.js traced what its server needs of itself (its server.js loads `next` as ours does);
    // the tracer, following every dynamic branch, would add its development server too (40 MB).
    if (rel.startsWith('.next/') || rel.startsWith('node_modules/next/')) continue;
    const from = join(root, rel);
    const to = join(out, rel);
    if (existsSync(to) || !statSync(from, { throwIfNoEntry: false })?.isFile()) continue;
    mkdirSync(dirname(to), { recursive: true });
    cpSync(from, to);
    copied++;
  }

  cpSync(join(root, '.next', 'server.mjs'), join(out, 'server.mjs'));
  // Next.js serves these from the folder but does not copy them into it.
  cpSync(join(root, '.next', 'static'), join(out, '.next', 'static'), { recursive: true });
  if (existsSync(join(root, 'public'))) cpSync(join(root, 'public'), join(out, 'public'), { recursive: true });
  cpSync(join(root, 'proto'), join(out, 'proto'), { recursive: true });
  // Next.js's own server.js would serve the pages without the console's server in front of them
  // (no Host check, no security headers, no metrics): only server.mjs may start it.
  rmSync(join(out, 'server.js'), { force: true });
  console.log(`runtime folder ready: ${out} (node server.mjs; ${copied} files added to Next.js's trace)`);
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
