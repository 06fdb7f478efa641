// Next.js and some libraries write plain text to stdout and stderr ("✓ Running next.config took
// 2ms", warnings, an error's stack). A cluster's log collector expects one JSON object per line,
// so in JSON mode each such write becomes one log entry (stdout at info, stderr at error) with
// `source: "console"`. pino itself writes to file descriptors directly, so it never passes here.
// Next.js marks its warnings with "⚠" on stderr: those are warnings, not errors; and one of them
// is about a way of running Next.js the console does not use, so it is left out.
import { format } from 'node:util';
import type { Logger } from 'pino';

type Write = typeof process.stdout.write;

/**
 * Next.js says this whenever a programmatic server loads a build made with `output: standalone`.
 * The console's server is such a programmatic server (lib/server/http) and the standalone
 * folder is what the container image runs (scripts/build-runtime.ts): the advice does not apply.
 */
const NOT_FOR_THIS_SERVER = /"next start" does not work with "output: standalone"/;

/** Routes plain-text writes to stdout/stderr through `log`; returns the function that undoes it. */
export function captureConsoleOutput(log: Logger): () => void {
  const originals: [NodeJS.WriteStream, Write][] = [];
  for (const [stream, level] of [
    [process.stdout, 'info'],
    [process.stderr, 'error'],
  ] as const) {
    const original = stream.write;
    originals.push([stream, original]);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text = (
        typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : format(chunk)
      ).replace(/\s+$/, '');
      const callback = rest.find((r): r is () => void => typeof r === 'function');
      // A line that is JSON already (another logger's) goes out as it is.
      if (text.startsWith('{') && text.endsWith('}')) return original.call(stream, chunk as string, ...(rest as []));
      if (text && !NOT_FOR_THIS_SERVER.test(text)) {
        const warning = level === 'error' && /^\s*⚠/u.test(text);
        log[warning ? 'warn' : level]({ source: 'console' }, text.replace(/^\s*[✓⚠✗○▲]\s*/u, ''));
      }
      callback?.();
      return true;
    }) as Write;
  }
  return () => {
    for (const [stream, original] of originals) stream.write = original;
  };
}
