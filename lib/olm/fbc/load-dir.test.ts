import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { readFbcDir } from './load-dir';

describe('readFbcDir', () => {
  const root = mkdtempSync(join(tmpdir(), 'fbc-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  mkdirSync(join(root, 'pkg-a', 'bundles'), { recursive: true });
  mkdirSync(join(root, 'pkg-b'), { recursive: true });
  mkdirSync(join(root, 'scratch'), { recursive: true });
  writeFileSync(join(root, 'pkg-a', 'package.yaml'), 'schema: olm.package\nname: pkg-a\n');
  writeFileSync(
    join(root, 'pkg-a', 'bundles', 'v1.json'),
    '{"schema":"olm.bundle","name":"pkg-a.v1","package":"pkg-a"}',
  );
  writeFileSync(join(root, 'pkg-a', 'bundles', 'draft.yaml'), 'schema: olm.bundle\nname: draft\npackage: pkg-a\n');
  writeFileSync(join(root, 'pkg-a', 'README.md'), '# not a catalog file\n');
  writeFileSync(join(root, 'pkg-a', '.indexignore'), 'bundles/draft.yaml\n');
  writeFileSync(join(root, 'pkg-b', 'catalog.yml'), 'schema: olm.package\nname: pkg-b\n');
  writeFileSync(join(root, 'scratch', 'junk.yaml'), 'schema: olm.package\nname: junk\n');
  writeFileSync(join(root, '.indexignore'), '# editor leftovers\nscratch/\n*.bak\n');

  test('reads JSON and YAML below the root, honouring .indexignore files where they sit', () => {
    const loaded = readFbcDir(root);
    assert.deepEqual(loaded.files, ['pkg-a/bundles/v1.json', 'pkg-a/package.yaml', 'pkg-b/catalog.yml']);
    assert.deepEqual(loaded.blobs.map((b) => b.blob.name).sort(), ['pkg-a', 'pkg-a.v1', 'pkg-b']);
    assert.deepEqual(loaded.problems, []);
  });

  test('a missing directory or a file is a clear error', () => {
    assert.throws(() => readFbcDir(join(root, 'nope')), /does not exist/);
    assert.throws(() => readFbcDir(join(root, 'pkg-b', 'catalog.yml')), /is not a directory/);
  });
});
