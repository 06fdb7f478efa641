// `--data FILE`: kill -9 the sandbox in the middle of a burst of writes, start it again on the
// same file, and every write it acknowledged is there, exactly once.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

const root = join(import.meta.dirname, '..', '..', '..');

function startProcess(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'lib', 'sandbox', 'main.ts'),
      '--port',
      '0',
      '--data',
      join(dir, 'data.jsonl'),
      '--kubeconfig',
      join(dir, 'kubeconfig'),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (https:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}:\n${out}`)));
  });
}

function call(
  url: string,
  ca: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = request(
      `${url}${path}`,
      {
        method,
        ca,
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          ...(data ? { 'Content-Length': data.length } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

describe('durability with --data', () => {
  const dir = mkdtempSync(join(tmpdir(), 'olm-sandbox-durable-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('kill -9 during a burst of writes loses no acknowledged write and duplicates none', async () => {
    const first = await startProcess(dir);
    const ca = readFileSync(join(dir, 'serving.crt'), 'utf8');
    const token = (JSON.parse(readFileSync(join(dir, 'tokens.json'), 'utf8')) as Record<string, string>).admin!;
    const acked: string[] = [];
    let killed = false;
    let n = 0;
    const writer = async () => {
      while (!killed) {
        const name = `burst-${n++}`;
        try {
          const r = await call(first.url, ca, token, 'POST', '/api/v1/namespaces/default/configmaps', {
            metadata: { name },
            data: { n: name },
          });
          if (r.status === 201) acked.push(name);
        } catch {
          // the connection died with the process: this write was never acknowledged
        }
      }
    };
    const writers = Array.from({ length: 8 }, writer);
    while (acked.length < 300) await new Promise((r) => setTimeout(r, 10));
    first.child.kill('SIGKILL');
    killed = true;
    await Promise.all(writers);

    const second = await startProcess(dir);
    try {
      const list = await call(second.url, ca, token, 'GET', '/api/v1/namespaces/default/configmaps');
      const names = (list.json as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name);
      const present = new Set(names);
      assert.equal(present.size, names.length, 'no object listed twice');
      const lost = acked.filter((a) => !present.has(a));
      assert.deepEqual(lost, [], `${lost.length} acknowledged writes lost`);
      assert.ok(acked.length >= 300);
      // It keeps working after the restart.
      assert.equal(
        (
          await call(second.url, ca, token, 'POST', '/api/v1/namespaces/default/configmaps', {
            metadata: { name: 'after-restart' },
          })
        ).status,
        201,
      );
      assert.equal(
        (
          await call(second.url, ca, token, 'POST', `/api/v1/namespaces/default/configmaps`, {
            metadata: { name: acked[0] },
          })
        ).status,
        409,
        'an acknowledged object still holds its name',
      );
    } finally {
      second.child.kill('SIGKILL');
    }
  });
});
