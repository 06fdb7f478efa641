// The archive as GNU tar reads it: every file at its path with its bytes, long paths included.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { tarArchive } from './tar';

test('GNU tar lists and extracts what was archived', async () => {
  const long = `${'deep/'.repeat(25)}file.yaml`;
  const files = [
    { path: 'kustomization.yaml', content: 'resources:\n- cluster-scope\n' },
    { path: 'cluster-scope/namespaces/pg.yaml', content: 'apiVersion: v1\nkind: Namespace\n' },
    { path: long, content: 'é ünïcode\n'.repeat(100) },
  ];
  const dir = mkdtempSync(join(tmpdir(), 'tar-test-'));
  writeFileSync(join(dir, 'a.tar'), await tarArchive(files, new Date('2026-01-01T00:00:00Z')));
  const list = spawnSync('tar', ['-tvf', join(dir, 'a.tar')], { encoding: 'utf8' });
  assert.equal(list.status, 0, list.stderr);
  assert.deepEqual(
    list.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(/\s+/).pop()),
    files.map((f) => f.path),
  );
  assert.match(list.stdout, /-rw-r--r-- root\/root/);
  const x = spawnSync('tar', ['-xf', join(dir, 'a.tar'), '-C', dir], { encoding: 'utf8' });
  assert.equal(x.status, 0, x.stderr);
  for (const f of files) assert.equal(readFileSync(join(dir, f.path), 'utf8'), f.content);
});

test('absolute paths and .. are refused', async () => {
  await assert.rejects(() => tarArchive([{ path: '/etc/passwd', content: '' }]), /not a relative path/);
  await assert.rejects(() => tarArchive([{ path: 'a/../../b', content: '' }]), /not a relative path/);
});
