// The console's server process: `node --import tsx lib/server/http/main.ts --port N --host ADDR`.
// `npm start` runs it with the cluster settings in the environment (scripts/start-options.ts).
// Logs are JSON lines (pino); LOG_FORMAT=pretty for a terminal, LOG_LEVEL to choose the level.
// SIGTERM stops it gracefully within OLM_CONSOLE_SHUTDOWN_GRACE_SECONDS (default 20).
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { logger } from '../../observability/logger';
import { startConsoleServer } from './console-server';

const log = logger();

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string', default: process.env.OLM_CONSOLE_PORT ?? '3000' }, host: { type: 'string', default: '127.0.0.1' } } });
  const port = Number(values.port);
  process.env.OLM_CONSOLE_PORT = String(port);
  const running = await startConsoleServer({ dir: join(import.meta.dirname, '..', '..', '..'), port, host: values.host, log });
  log.info({ url: running.url }, `console listening on ${running.url}`);
  const grace = Number(process.env.OLM_CONSOLE_SHUTDOWN_GRACE_SECONDS ?? 20) * 1000;
  const stop = (signal: string) => {
    log.info({ signal }, 'stopping');
    setTimeout(() => process.exit(0), grace + 5_000).unref();
    void running.close(grace).then(() => process.exit(0));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  log.fatal({ err }, 'the console could not start');
  process.exit(1);
});
