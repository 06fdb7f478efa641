// The console's server process from a checkout: `node --import tsx lib/server/http/main.ts
// [flags]`. `npm start` runs it with the cluster settings in the environment
// (scripts/start-options.ts). Logs are JSON lines (pino); LOG_FORMAT=pretty for a terminal,
// LOG_LEVEL to choose the level. SIGTERM stops it gracefully within
// OLM_CONSOLE_SHUTDOWN_GRACE_SECONDS (default 20).
import { join } from 'node:path';
import { logger } from '../../observability/logger';
import { serve } from './serve';

const log = logger();

serve(join(import.meta.dirname, '..', '..', '..'), process.argv.slice(2), log).catch((err: unknown) => {
  log.fatal({ err }, 'the console could not start');
  process.exit(1);
});
