import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import { captureConsoleOutput } from './console-capture';

test('plain text written to stdout and stderr becomes one JSON entry per write, stdout at info, stderr at error', () => {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) });
  const log = pino({ base: null, timestamp: false }, sink);
  const undo = captureConsoleOutput(log);
  try {
    console.log(' ✓ Running next.config took 2ms');
    console.error('Error: boom\n    at somewhere (file.js:1:1)');
    process.stdout.write('\n');
  } finally {
    undo();
  }
  const entries = lines.map((l) => JSON.parse(l) as { level: number; msg: string; source: string });
  assert.deepEqual(entries, [
    { level: 30, source: 'console', msg: 'Running next.config took 2ms' },
    { level: 50, source: 'console', msg: 'Error: boom\n    at somewhere (file.js:1:1)' },
  ]);
});

test('a Next.js warning on stderr is a warning, and its advice about "next start" is left out', () => {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) });
  const log = pino({ base: null, timestamp: false }, sink);
  const undo = captureConsoleOutput(log);
  try {
    console.warn(
      ' ⚠ "next start" does not work with "output: standalone" configuration. Use "node .next/standalone/server.js" instead.',
    );
    console.warn(' ⚠ Invalid next.config.js options detected');
  } finally {
    undo();
  }
  const entries = lines.map((l) => JSON.parse(l) as { level: number; msg: string });
  assert.deepEqual(entries, [{ level: 40, source: 'console', msg: 'Invalid next.config.js options detected' }]);
});
