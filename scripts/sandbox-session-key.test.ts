import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sandboxSessionKey } from './sandbox-session-key';

test('the sandbox console keeps one session key across starts, readable by its owner only', () => {
  const dir = mkdtempSync(join(tmpdir(), 'olm-session-key-'));
  try {
    const file = join(dir, '.sandbox', 'session-key');
    const first = sandboxSessionKey(file);
    assert.match(first, /^[0-9a-f]{64}$/);
    assert.equal(sandboxSessionKey(file), first, 'the second start uses the same key');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    writeFileSync(file, 'not a key\n');
    const replaced = sandboxSessionKey(file);
    assert.notEqual(replaced, first);
    assert.equal(readFileSync(file, 'utf8').trim(), replaced, 'a file that holds no key is replaced');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
