// The console's log: one JSON object per line (pino), `LOG_FORMAT=pretty` for people at a
// terminal, `LOG_LEVEL` to choose the level. One logger per process, shared by the HTTP server
// and the code Next.js bundles (pino is loaded from node_modules by both).
import pino, { type Logger } from 'pino';

const g = globalThis as { olmConsoleLogger?: Logger };

export function logger(): Logger {
  g.olmConsoleLogger ??= pino({
    level: process.env.LOG_LEVEL ?? 'info',
    base: { service: 'olm-console' },
    // Defence in depth: nothing that carries credentials is ever written.
    redact: { paths: ['token', '*.token', 'authorization', '*.authorization', 'cookie', '*.cookie', 'headers.cookie', 'headers.authorization'], censor: '[redacted]' },
    ...(process.env.LOG_FORMAT === 'pretty' ? { transport: { target: 'pino-pretty', options: { colorize: !!process.stdout.isTTY } } } : {}),
  });
  return g.olmConsoleLogger;
}
