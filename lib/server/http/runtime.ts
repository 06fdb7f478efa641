// The entry of the runtime folder (`.next/standalone`, what the container image copies):
// bundled by scripts/build-runtime.ts into `server.mjs`, run with plain `node`, no TypeScript
// loader and no checkout. Next.js reads its configuration from the build
// (required-server-files.json) instead of next.config.js, as its own standalone server does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = import.meta.dirname;
process.chdir(dir);
Object.assign(process.env, { NODE_ENV: 'production' });
const required = JSON.parse(readFileSync(join(dir, '.next', 'required-server-files.json'), 'utf8')) as {
  config: unknown;
};
process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(required.config);

// Imported only now: Next.js reads NODE_ENV and the configuration when it loads.
const [{ logger }, { serve }] = await Promise.all([import('../../observability/logger'), import('./serve')]);
const log = logger();
serve(dir, process.argv.slice(2), log).catch((err: unknown) => {
  log.fatal({ err }, 'the console could not start');
  process.exit(1);
});
