// The console's server process: `node --import tsx lib/server/http/main.ts --port N --host ADDR`.
// `npm start` runs it with the cluster settings in the environment (scripts/start-options.ts).
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startConsoleServer } from './console-server';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string', default: process.env.OLM_CONSOLE_PORT ?? '3000' }, host: { type: 'string', default: '127.0.0.1' } } });
  const port = Number(values.port);
  process.env.OLM_CONSOLE_PORT = String(port);
  const running = await startConsoleServer({ dir: join(import.meta.dirname, '..', '..', '..'), port, host: values.host });
  console.log(`console listening on ${running.url}`);
  const stop = () => {
    void running.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(`the console could not start: ${(err as Error).message}`);
  process.exit(1);
});
