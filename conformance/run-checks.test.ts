import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { apiChecks } from './checks/api';
import { kubectlChecks } from './checks/kubectl';
import { failForwardChecks } from './checks/fail-forward';
import { olmChecks } from './checks/olm';
import { schemaChecks } from './checks/schemas';
import { scopedChecks } from './checks/scoped';
import {
  KNOWN_DIFFERENCES_DOC,
  knownDifferences,
  readKnownDifferences,
  report,
  runCheck,
  runChecks,
} from './run-checks';
import type { Target } from './target';

const target = (name: 'sandbox' | 'real', url: string): Target => ({
  name,
  url,
  ca: '',
  tokens: {},
  kubeconfig: '',
  registries: { cat: name === 'sandbox' ? '127.0.0.1:1111' : '127.0.0.1:2222' },
});

test('the known differences are the rows of the table under their heading, with their reasons', () => {
  const known = knownDifferences(
    '# x\n## Known differences from the real cluster\n\nprose\n\n| check | kind | why |\n|---|---|---|\n| `a/b` | deliberate | because |\n| `c` | sandbox bug, open | issue 19 |\n\n## Next\n| `d` | x | y |\n',
  );
  assert.deepEqual(
    [...known.entries()],
    [
      ['a/b', 'deliberate: because'],
      ['c', 'sandbox bug, open: issue 19'],
    ],
  );
});

test('a document without the heading is refused by name, not read as an empty table', () => {
  assert.throws(
    () => knownDifferences('# Conformance\n\n| `a/b` | deliberate | because |\n', 'docs/x.md'),
    /docs\/x\.md has no "Known differences from the real cluster" heading/,
  );
});

test('the suite reads the table of docs/conformance.md, and each row names a check it runs', () => {
  assert.equal(KNOWN_DIFFERENCES_DOC, 'docs/conformance.md');
  const known = readKnownDifferences(join(import.meta.dirname, '..'));
  assert.match(
    known.get('patch/server-side apply') ?? '',
    /^deliberate: the sandbox does not implement server-side apply/,
  );
  // A row whose check was renamed or removed explains nothing: it would only hide a future divergence.
  const ids = new Set(
    [...apiChecks, ...schemaChecks, ...kubectlChecks, ...olmChecks, ...scopedChecks, ...failForwardChecks].map(
      (c) => c.id,
    ),
  );
  assert.deepEqual(
    [...known.keys()].filter((id) => !ids.has(id)),
    [],
  );
});

test('a check that differs is a divergence, explained only when the table names it; addresses are normalised', async () => {
  const sandbox = target('sandbox', 'https://127.0.0.1:6443');
  const real = target('real', 'https://127.0.0.1:7443');
  const same = await runCheck(
    { id: 'same', run: async (t) => ({ at: t.registries.cat, server: t.url }) },
    sandbox,
    real,
    new Map(),
  );
  assert.deepEqual(same.differences, []);
  const differs = await runCheck(
    { id: 'differs', run: async (t) => ({ code: t.name === 'sandbox' ? 400 : 415 }) },
    sandbox,
    real,
    new Map(),
  );
  assert.equal(differs.differences.length, 1);
  assert.equal(differs.explained, undefined);
  const known = await runCheck(
    { id: 'differs', run: async (t) => ({ code: t.name === 'sandbox' ? 400 : 415 }) },
    sandbox,
    real,
    new Map([['differs', 'deliberate: x']]),
  );
  assert.equal(known.explained, 'deliberate: x');
  const lines: string[] = [];
  assert.deepEqual(
    report([same, differs, known], (l) => lines.push(l)),
    { checks: 3, divergences: 2, explained: 1 },
  );
  assert.ok(lines.some((l) => l.startsWith('| differs | $.code | 400 | 415 | no |')));
});

test('independent checks run alongside the others; verdicts keep the checks order', async () => {
  const sandbox = target('sandbox', 'https://127.0.0.1:6443');
  const real = target('real', 'https://127.0.0.1:7443');
  const running = new Set<string>();
  let overlapped = false;
  const slow = (id: string, independent: boolean) => ({
    id,
    independent,
    run: async () => {
      running.add(id);
      if (running.size > 1) overlapped = true;
      await new Promise((r) => setTimeout(r, 30));
      running.delete(id);
      return { id };
    },
  });
  const verdicts = await runChecks(
    [slow('a', false), slow('b', true), slow('c', true), slow('d', false)],
    sandbox,
    real,
    new Map(),
  );
  assert.deepEqual(
    verdicts.map((v) => v.id),
    ['a', 'b', 'c', 'd'],
  );
  assert.ok(overlapped, 'the independent checks ran alongside others');
});

test('a check that must run alone starts after every other check has finished', async () => {
  const sandbox = target('sandbox', 'https://127.0.0.1:6443');
  const real = target('real', 'https://127.0.0.1:7443');
  const running: string[] = [];
  const seenBy: Record<string, string[]> = {};
  const check = (id: string, flags: { independent?: boolean; alone?: boolean }, ms: number) => ({
    id,
    ...flags,
    // Each check runs on both clusters at once: what counts is which other checks were running.
    run: async () => {
      seenBy[id] = [...new Set(running.filter((r) => r !== id))];
      running.push(id);
      await new Promise((r) => setTimeout(r, ms));
      running.splice(running.indexOf(id), 1);
      return { id };
    },
  });
  const verdicts = await runChecks(
    [check('first', {}, 5), check('lonely', { alone: true }, 5), check('slow', { independent: true }, 60)],
    sandbox,
    real,
    new Map(),
  );
  assert.deepEqual(
    verdicts.map((v) => v.id),
    ['first', 'lonely', 'slow'],
  );
  assert.deepEqual(seenBy.lonely, [], 'nothing else was running when it started');
  assert.deepEqual(seenBy.first, ['slow'], 'the independent check ran alongside the ordinary one');
});
