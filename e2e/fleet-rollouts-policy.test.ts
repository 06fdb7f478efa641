// A rollout through an OperatorPolicy on its page, in Debian's Chromium, against a production build
// reading a real Open Cluster Management v1.0.0 hub (`npm run cluster -- --fleet 2`: the hub, also
// local-cluster, and cluster2 labelled canary=true, each with real OLM v0, the shared gatekeeper
// catalog and config-policy-controller v0.16.0). Written through lib/server/rollouts as the hub's
// admin with upgradeApproval None, its page shows each cluster Compliant with the policy's own
// message (the next CSV available for approval), and the policy's terms and what the controller
// does with them. Axe clean at 1440 and 390 px. Skipped when the cluster's programs or the shared
// catalogs are missing.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import type { Browser, Page } from 'playwright-core';
import { KubeClient } from '../lib/k8s/client';
import type { RolloutChoices } from '../lib/olm/rollout/choices';
import { readRollout } from '../lib/server/rollouts/read';
import { writeRollout } from '../lib/server/rollouts/write';
import { sharedCatalog, sharedCatalogsMissing } from '../lib/testing/shared-catalogs';
import { clusterProgramsMissing } from '../scripts/cluster-programs';
import { accessibilityProblems, DESKTOP, PHONE } from './support/a11y';
import { launchBrowser } from './support/browser';
import { startConsole, type RunningConsole } from './support/console-server';

const root = join(import.meta.dirname, '..');
const shots = join(root, 'test-results', 'fleet-rollouts-policy');
const catalog = sharedCatalog('gatekeeper-operator-product-v4.20');
const skip =
  clusterProgramsMissing() ??
  clusterProgramsMissing('ocm-paths') ??
  (existsSync(catalog) ? undefined : sharedCatalogsMissing);
const PKG = 'gatekeeper-operator-product';

const choices: RolloutChoices = {
  name: 'gatekeeper-policy',
  hubNamespace: 'rollouts',
  olm: 'v0',
  package: PKG,
  channel: '3.18',
  version: `${PKG}.v3.18.0`,
  installNamespace: 'gatekeeper-system',
  catalog: { name: 'gatekeeper-operator-product-v4-20', namespace: 'olm' },
  placement: { clusterSets: ['default'] },
  canary: { canary: 'true' },
  waveSize: 1,
  operatorPolicy: { namespace: 'open-cluster-management-policies', allowedVersions: [], upgradeApproval: 'None' },
};

function processesIn(dir: string): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(dir)) out.push(Number(e));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) assert.fail(`not within ${ms / 1000} s: ${what}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

if (skip) test('a rollout through an OperatorPolicy on its page', (t) => t.skip(skip));
else
  describe('a rollout through an OperatorPolicy on its page', () => {
    let dir: string;
    let fleet: ChildProcess;
    let output = '';
    let hub: KubeClient;
    let consoleServer: RunningConsole;
    let browser: Browser;

    before(async () => {
      mkdirSync(shots, { recursive: true });
      dir = mkdtempSync(join(tmpdir(), 'olm-e2e-policy-'));
      fleet = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          join(root, 'scripts', 'cluster.ts'),
          '--fleet',
          '2',
          '--data-dir',
          dir,
          '--no-olm-v1',
          '--catalog',
          catalog,
        ],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      fleet.stdout!.on('data', (d: Buffer) => (output += d));
      fleet.stderr!.on('data', (d: Buffer) => (output += d));
      await new Promise<void>((res, rej) => {
        const timer = setTimeout(() => rej(new Error(`no "fleet ready" in 600 s:\n${output}`)), 600_000);
        fleet.stdout!.on('data', () => /^fleet ready$/m.test(output) && (clearTimeout(timer), res()));
        fleet.once('exit', (code) => (clearTimeout(timer), rej(new Error(`the fleet exited (${code}):\n${output}`))));
      });
      const hubKubeconfig = /^hub kubeconfig: (.+)$/m.exec(output)![1]!;
      const labelled = spawnSync(
        'kubectl',
        ['--kubeconfig', hubKubeconfig, 'label', 'managedcluster', 'cluster2', 'canary=true'],
        { encoding: 'utf8' },
      );
      assert.equal(labelled.status, 0, labelled.stderr);
      const kc = new KubeConfig();
      kc.loadFromFile(hubKubeconfig);
      hub = new KubeClient(kc);
      await writeRollout(hub, choices);
      // Both waves installed, each policy Compliant, before the browser looks.
      await eventually(
        'both clusters healthy and Compliant',
        async () => {
          const d = await readRollout(hub, 'rollouts', choices.name);
          const rows = d.view.waves.flatMap((w) => w.clusters);
          return rows.length === 2 && rows.every((c) => c.state === 'healthy' && c.compliance?.state === 'Compliant')
            ? true
            : undefined;
        },
        420_000,
      );
      consoleServer = await startConsole({ OLM_CONSOLE_KUBECONFIG: hubKubeconfig });
      browser = await launchBrowser();
    });

    after(async () => {
      await browser?.close();
      await consoleServer?.stop();
      if (fleet?.exitCode === null && fleet.signalCode === null) fleet.kill('SIGTERM');
      const deadline = Date.now() + 60_000;
      while (dir && processesIn(dir).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
      for (const pid of dir ? processesIn(dir) : []) process.kill(pid, 'SIGKILL');
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const check = async (page: Page, name: string) => {
      for (const [size, suffix] of [
        [DESKTOP, ''],
        [PHONE, '-phone'],
      ] as const) {
        await page.setViewportSize(size);
        await page.screenshot({ path: join(shots, `${name}${suffix}.png`), fullPage: true, animations: 'disabled' });
        const problems = await accessibilityProblems(page);
        assert.deepEqual(problems, [], `fleet-rollouts/${name}${suffix}:\n${problems.join('\n')}`);
        if (size === PHONE) {
          const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(wide <= 0, `${name} scrolls sideways by ${wide} px on a phone`);
        }
      }
      await page.setViewportSize(DESKTOP);
    };

    test("each cluster's compliance in the policy's words, and what the policy does", async () => {
      const page = await browser.newPage({ viewport: DESKTOP });
      await page.goto(`${consoleServer.url}/fleet/rollouts/rollouts/${choices.name}`);
      const canary = page.getByRole('region', { name: 'Canary' });
      await canary.getByText('cluster2').waitFor();
      const available = `an InstallPlan to update to \\[${PKG}\\.v3\\.18\\.1\\] is available for approval`;
      assert.match(
        await canary.innerText(),
        new RegExp(`cluster2: healthy[\\s\\S]*OperatorPolicy Compliant: Compliant; .*${available}`),
      );
      assert.match(
        await page.getByRole('region', { name: 'Wave 1' }).innerText(),
        new RegExp(`local-cluster: healthy[\\s\\S]*OperatorPolicy Compliant: Compliant; `),
      );
      const terms = await page
        .getByRole('region', { name: /^OperatorPolicy open-cluster-management-policies\/gatekeeper-policy/ })
        .innerText();
      assert.match(
        terms,
        /upgradeApproval None; versions none \(any\); startingCSV gatekeeper-operator-product\.v3\.18\.0/,
      );
      assert.match(terms, /it approves no upgrade/);
      assert.match(terms, /keeps enforcing it/);
      await check(page, 'gatekeeper-policy');
      await page.close();
    });
  });
