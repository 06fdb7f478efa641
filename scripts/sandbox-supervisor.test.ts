// npm start's sandbox supervisor: the decisions, and a real sandbox process killed with SIGKILL
// coming back on the same port, with the same kubeconfig and the objects acknowledged before.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../lib/k8s/client';
import type { ResourceType } from '../lib/olm/resources/common';
import { decideOnExit, DEFAULT_RESTART_POLICY, SandboxSupervisor, type SandboxListening } from './sandbox-supervisor';

const CONFIG_MAP: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'configmaps',
  namespaced: true,
  kind: 'ConfigMap',
};
const root = join(import.meta.dirname, '..');

describe('decideOnExit', () => {
  const crash = { code: null, signal: 'SIGKILL' as const, ranMs: 60_000, stopping: false };

  test('a crash is restarted after a short pause, longer with each quick crash in a row, given up on at the fifth', () => {
    const d1 = decideOnExit(crash, 0);
    assert.deepEqual(d1, { action: 'restart', crashes: 1, delayMs: 250, how: 'was killed (SIGKILL)' });
    const quick = { ...crash, code: 1, signal: null, ranMs: 500 };
    const delays: number[] = [];
    let n = d1.crashes;
    for (;;) {
      const d = decideOnExit(quick, n);
      n = d.crashes;
      if (d.action === 'stop') {
        assert.match(
          d.reason,
          /exited with status 1, its 5th crash in a row within 10 s of starting; not restarting it/,
        );
        break;
      }
      delays.push(d.delayMs);
    }
    assert.deepEqual(delays, [500, 1000, 2000]);
    assert.equal(n, DEFAULT_RESTART_POLICY.maxQuickCrashes);
    // Never listening counts as quick.
    assert.equal(decideOnExit({ ...quick, ranMs: 0 }, 4).action, 'stop');
  });

  test('a crash after a long run starts the count again', () => {
    assert.deepEqual(decideOnExit(crash, 4), {
      action: 'restart',
      crashes: 1,
      delayMs: 250,
      how: 'was killed (SIGKILL)',
    });
  });

  test('no restart after stop(), nor when the sandbox exits 0 (it was told to stop: Ctrl-C reaches the whole process group)', () => {
    assert.equal(decideOnExit({ ...crash, stopping: true }, 0).action, 'stop');
    assert.equal(decideOnExit({ ...crash, signal: 'SIGTERM', stopping: true }, 0).action, 'stop');
    const clean = decideOnExit({ code: 0, signal: null, ranMs: 100, stopping: false }, 0);
    assert.equal(clean.action, 'stop');
  });
});

describe('SandboxSupervisor with a real sandbox', () => {
  const dir = mkdtempSync(join(tmpdir(), 'olm-sandbox-supervisor-'));
  const kubeconfig = join(dir, 'kubeconfig');
  let sup: SandboxSupervisor | undefined;
  after(async () => {
    await sup?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test(
    'killed with SIGKILL, it is back on the same port with the same kubeconfig and its data; stop() does not restart it',
    { timeout: 60_000 },
    async () => {
      let output = '';
      sup = new SandboxSupervisor({
        root,
        kubeconfig,
        dataFile: join(dir, 'data.jsonl'),
        output: (t) => (output += t),
      });
      const events: string[] = [];
      sup.on('restarting', (r) => events.push(`restarting ${r.how}`));
      sup.on('stopped', (s) => events.push(`stopped ${s.reason}`));
      const first = await sup.start();
      assert.notEqual(first.port, 0);
      const kubeconfigText = readFileSync(kubeconfig, 'utf8');
      const kc = new KubeConfig();
      kc.loadFromFile(kubeconfig);
      // The console's client, loaded once, as the console's is.
      const client = new KubeClient(kc);
      await client.create(CONFIG_MAP, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'before-the-crash', namespace: 'default' },
        data: { note: 'acknowledged' },
      });

      const back = new Promise<SandboxListening>((resolve) => sup!.once('listening', resolve));
      const killedAt = Date.now();
      process.kill(sup.pid!, 'SIGKILL');
      const again = await back;
      const tookMs = Date.now() - killedAt;
      assert.deepEqual([again.port, again.url, again.restarts], [first.port, first.url, 1]);
      assert.ok(tookMs < 10_000, `back after ${tookMs} ms`);
      assert.deepEqual(events, ['restarting was killed (SIGKILL)']);
      assert.equal(readFileSync(kubeconfig, 'utf8'), kubeconfigText, 'the same server, CA and token');
      const cm = await client.get<{ data?: Record<string, string> }>(CONFIG_MAP, 'before-the-crash', 'default');
      assert.deepEqual(cm.data, { note: 'acknowledged' });
      assert.match(output, /listening on https:\/\/127\.0\.0\.1:\d+[\s\S]*listening on https:\/\/127\.0\.0\.1:\d+/);

      const pid = sup.pid!;
      await sup.stop('SIGTERM');
      await new Promise((r) => setTimeout(r, DEFAULT_RESTART_POLICY.delaysMs[0]! + 500));
      assert.equal(sup.pid, undefined);
      assert.throws(() => process.kill(pid, 0), /ESRCH/, 'the sandbox process is gone');
      assert.deepEqual(events, ['restarting was killed (SIGKILL)', 'stopped the sandbox was stopped']);
      console.log(`sandbox back on port ${again.port} ${tookMs} ms after SIGKILL`);
    },
  );

  test('a sandbox that cannot start the first time is not restarted', { timeout: 30_000 }, async () => {
    const bad = new SandboxSupervisor({
      root,
      kubeconfig: join(dir, 'other', 'kubeconfig'),
      dataFile: join(dir, 'other.jsonl'),
      port: 70_000,
      output: () => undefined,
    });
    let restarting = false;
    bad.on('restarting', () => (restarting = true));
    await assert.rejects(bad.start(), /the sandbox exited with status 2 before it listened/);
    assert.equal(restarting, false);
  });
});
