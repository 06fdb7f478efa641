// The console's log: one format per run, text for a person at a terminal and one JSON object per
// line (pino) for everything else — a log collector, a pipe, CI. `LOG_FORMAT=json|pretty` chooses,
// `LOG_LEVEL` sets the level. One logger per process, shared by the HTTP server and the code
// Next.js bundles (pino is loaded from node_modules by both).
import pino, { type Logger } from 'pino';

export type LogFormat = 'json' | 'pretty';

/** `LOG_FORMAT` if it names a format; else text on a terminal and JSON otherwise. */
export function logFormat(
  env: Record<string, string | undefined> = process.env,
  tty = !!process.stdout.isTTY,
): LogFormat {
  if (env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty') return env.LOG_FORMAT;
  return tty ? 'pretty' : 'json';
}

const g = globalThis as { olmConsoleLogger?: Logger };

export function logger(): Logger {
  g.olmConsoleLogger ??= pino({
    level: process.env.LOG_LEVEL ?? 'info',
    base: { service: 'olm-console' },
    // Defence in depth: nothing that carries credentials is ever written.
    redact: {
      paths: [
        'token',
        '*.token',
        'authorization',
        '*.authorization',
        'cookie',
        '*.cookie',
        'headers.cookie',
        'headers.authorization',
      ],
      censor: '[redacted]',
    },
    ...(logFormat() === 'pretty'
      ? { transport: { target: 'pino-pretty', options: { colorize: !!process.stdout.isTTY } } }
      : {}),
  });
  return g.olmConsoleLogger;
}
