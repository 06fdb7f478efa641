#!/usr/bin/env node
// Runs the project's tests with Node's own test runner (TypeScript through tsx).
// `npm test`: every *.test.ts outside e2e/; `npm run e2e`: the Playwright specs in e2e/.
// Node 20's --test takes no globs, so the files are found here.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const e2e = process.argv.includes('--e2e');
const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const skipDirs = new Set(['node_modules', '.next', '.git', '.sandbox', 'test-results']);

function walk(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!skipDirs.has(entry.name)) walk(join(dir, entry.name), out);
    } else if (/\.test\.tsx?$/.test(entry.name)) {
      out.push(relative(root, join(dir, entry.name)));
    }
  }
  return out;
}

const files = walk(root, [])
  .filter((f) => (e2e ? f.startsWith('e2e/') : !f.startsWith('e2e/')))
  .filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)))
  .sort();

if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

const args = ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2'];
if (e2e) args.push('--test-concurrency=1');
// kubectl caches discovery per host:port under ~/.kube/cache; tests start clusters on ports a
// different cluster (the real one, a sandbox) may have used before, and a stale cache makes
// kubectl resolve names to resources this cluster does not serve. A fresh cache per run.
const env = {
  ...process.env,
  KUBECACHEDIR: process.env.KUBECACHEDIR ?? mkdtempSync(join(tmpdir(), 'olm-console-kubecache-')),
};
const child = spawn(process.execPath, [...args, ...files], { cwd: root, stdio: 'inherit', env });
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
