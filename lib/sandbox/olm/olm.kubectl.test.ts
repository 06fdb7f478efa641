// The seeds' OLM flow on a real catalog (gatekeeper from ../shared/catalogs), driven by kubectl as
// an admin drives a cluster, with faults injected through the sandbox's fault endpoint.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import yaml from 'js-yaml';
import { withSandbox } from '../testing/sandbox-fixture';
import { CATALOG_DIR_ANNOTATION } from './catalog-sources';
import { needsSharedCatalogs, sharedCatalogs } from '../../testing/shared-catalogs';

const kubectlPath = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((p) => existsSync(p));
const catalogs = sharedCatalogs;

describe(
  'OLM flow with kubectl on the gatekeeper catalog',
  { skip: kubectlPath ? needsSharedCatalogs.skip : 'kubectl is not installed on this machine' },
  () => {
    let sb: Awaited<ReturnType<typeof withSandbox>>;
    const k = (...args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          kubectlPath!,
          ['--kubeconfig', sb.kubeconfigPath, ...args],
          { timeout: 30_000 },
          (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr }),
        );
      });
    const until = async (args: string[], want: RegExp, what: string) => {
      const end = Date.now() + 15_000;
      let last = '';
      for (;;) {
        const r = await k(...args);
        last = r.stdout + r.stderr;
        if (want.test(r.stdout)) return r.stdout;
        if (Date.now() > end) assert.fail(`timed out waiting for ${what}; last output: ${last}`);
        await new Promise((res) => setTimeout(res, 100));
      }
    };
    const fault = (body: object) => {
      const file = join(sb.dir, `fault-${Date.now()}.json`);
      writeFileSync(file, JSON.stringify(body));
      return k('create', '--raw', '/sandbox/faults', '-f', file);
    };

    before(async () => {
      sb = await withSandbox({
        catalogs: [join(catalogs, 'gatekeeper-operator-product-v4.20')],
        deploymentDelayMs: 30,
      });
    });
    after(() => sb.close());

    test('install with Manual approval, approve, then an upgrade across the skipRange in one InstallPlan', async () => {
      const sub = join(sb.dir, 'sub.yaml');
      writeFileSync(
        sub,
        `apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: gatekeeper, namespace: operators}
spec:
  name: gatekeeper-operator-product
  source: gatekeeper-operator-product-v4-20
  sourceNamespace: olm
  channel: stable
  installPlanApproval: Manual
  startingCSV: gatekeeper-operator-product.v3.17.0
`,
      );
      assert.equal((await k('apply', '-f', sub)).code, 0);
      const ip = await until(
        ['get', 'ip', '-n', 'operators'],
        /install-\w{5}\s+gatekeeper-operator-product\.v3\.17\.0\s+Manual\s+false/,
        'a Manual InstallPlan for v3.17.0',
      );
      const name = /install-\w{5}/.exec(ip)![0];
      assert.equal(
        (await k('get', 'sub', 'gatekeeper', '-n', 'operators', '-o', 'jsonpath={.status.state}')).stdout,
        'UpgradePending',
      );
      assert.equal(
        (await k('patch', 'ip', name, '-n', 'operators', '--type', 'merge', '-p', '{"spec":{"approved":true}}')).code,
        0,
      );
      await until(
        ['get', 'csv', 'gatekeeper-operator-product.v3.17.0', '-n', 'operators', '-o', 'jsonpath={.status.phase}'],
        /^Succeeded$/,
        'v3.17.0 Succeeded',
      );
      // 3.21.0's skipRange <3.21.0 covers 3.17.0: the next plan goes straight to the head.
      await until(
        ['get', 'ip', '-n', 'operators'],
        /gatekeeper-operator-product\.v3\.21\.0\s+Manual\s+false/,
        'the upgrade plan to v3.21.0',
      );
      await until(
        ['get', 'csv', '-n', 'team1'],
        /gatekeeper-operator-product\.v3\.17\.0\s+Gatekeeper Operator\s+3\.17\.0/,
        'a Copied CSV in team1 (AllNamespaces)',
      );
    });

    test('faults: a failing InstallPlan shows on the Subscription; throttling answers 429', async () => {
      assert.equal(
        (await fault({ failNextInstallPlan: 'image quay.example.com/gatekeeper:3.21.0 could not be pulled' })).code,
        0,
      );
      const plan = /install-\w{5}/.exec(
        (
          await k(
            'get',
            'ip',
            '-n',
            'operators',
            '-o',
            'jsonpath={.items[?(@.status.phase=="RequiresApproval")].metadata.name}',
          )
        ).stdout,
      )![0];
      await k('patch', 'ip', plan, '-n', 'operators', '--type', 'merge', '-p', '{"spec":{"approved":true}}');
      await until(
        ['get', 'ip', plan, '-n', 'operators', '-o', 'jsonpath={.status.phase}'],
        /^Failed$/,
        'the plan Failed',
      );
      const cond = await until(
        [
          'get',
          'sub',
          'gatekeeper',
          '-n',
          'operators',
          '-o',
          'jsonpath={.status.conditions[?(@.type=="InstallPlanFailed")].reason}',
        ],
        /\S/,
        'InstallPlanFailed',
      );
      assert.equal(cond, 'InstallComponentFailed');

      assert.equal((await fault({ errors: { share: 1, code: 429 } })).code, 0);
      const throttled = await k('get', 'ns', 'default', '--request-timeout=5s');
      assert.notEqual(throttled.code, 0);
      assert.match(throttled.stderr, /throttling requests \(fault injection\)/);
      assert.equal(
        (await fault({ errors: { share: 0, code: 500 } })).code,
        0,
        'the fault endpoint itself is never throttled',
      );
      assert.equal((await k('get', 'ns', 'default')).code, 0);
      const bad = await fault({ errors: { share: 2, code: 500 } });
      assert.match(bad.stderr, /errors\.share/);
    });

    test('the fault endpoint is for cluster-admins only', async () => {
      const r = await new Promise<{ stderr: string }>((resolve) =>
        execFile(
          kubectlPath!,
          ['--kubeconfig', sb.kubeconfigs.alice!, 'get', '--raw', '/sandbox/faults'],
          (_e, _o, stderr) => resolve({ stderr }),
        ),
      );
      assert.match(r.stderr, /Forbidden|forbidden/);
    });

    test('new catalog content: an older snapshot of gatekeeper, then the real one, drives the upgrade', async () => {
      // Its own cluster: gatekeeper is installed for all namespaces in the one above, and a second
      // all-namespaces install would be refused (InterOperatorGroupOwnerConflict), as OLM does.
      const outer = sb;
      sb = await withSandbox({ demo: false, deploymentDelayMs: 30 });
      try {
        await snapshotFlow();
      } finally {
        await sb.close();
        sb = outer;
      }
    });

    const snapshotFlow = async () => {
      // A snapshot of the real catalog from before 3.20.0 and 3.21.0 were published, made in a
      // temporary folder for this test (the stable channel cut after 3.19.1).
      const src = join(catalogs, 'gatekeeper-operator-product-v4.20');
      const old = join(sb.dir, 'gatekeeper-before-3.20');
      cpSync(src, old, { recursive: true });
      const chFile = join(old, 'gatekeeper-operator-product', 'channels', 'channel-stable.yaml');
      const ch = yaml.load(readFileSync(chFile, 'utf8')) as { entries: { name: string }[] };
      ch.entries = ch.entries.filter((e) => !/v3\.2[01]\.0$/.test(e.name));
      writeFileSync(chFile, yaml.dump(ch));
      for (const f of ['channel-3.20.yaml', 'channel-3.21.yaml'])
        writeFileSync(join(old, 'gatekeeper-operator-product', 'channels', f), '');
      for (const f of ['bundle-v3.20.0.yaml', 'bundle-v3.21.0.yaml'])
        writeFileSync(join(old, 'gatekeeper-operator-product', 'bundles', f), '');
      const cs = join(sb.dir, 'cs.yaml');
      writeFileSync(
        cs,
        `apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata:
  name: gk-snapshot
  namespace: team1
  annotations: {${CATALOG_DIR_ANNOTATION}: ${old}}
spec: {sourceType: grpc, displayName: Gatekeeper snapshot}
---
apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata: {name: all, namespace: team1}
spec: {}
`,
      );
      assert.equal((await k('apply', '-f', cs)).code, 0);
      const sub = join(sb.dir, 'sub2.yaml');
      writeFileSync(
        sub,
        `apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: gk, namespace: team1}
spec: {name: gatekeeper-operator-product, source: gk-snapshot, sourceNamespace: team1, channel: stable, installPlanApproval: Manual}
`,
      );
      assert.equal((await k('apply', '-f', sub)).code, 0);
      const first = /install-\w{5}/.exec(
        await until(
          ['get', 'ip', '-n', 'team1'],
          /gatekeeper-operator-product\.v3\.19\.1\s+Manual\s+false/,
          'the head of the snapshot, v3.19.1',
        ),
      )![0];
      await k('patch', 'ip', first, '-n', 'team1', '--type', 'merge', '-p', '{"spec":{"approved":true}}');
      await until(
        ['get', 'csv', 'gatekeeper-operator-product.v3.19.1', '-n', 'team1', '-o', 'jsonpath={.status.phase}'],
        /^Succeeded$/,
        'v3.19.1 Succeeded',
      );
      assert.equal(
        (await k('get', 'sub', 'gk', '-n', 'team1', '-o', 'jsonpath={.status.state}')).stdout,
        'AtLatestKnown',
      );
      // The real catalog is published: 3.21.0 covers 3.19.1 by skipRange, one InstallPlan.
      assert.equal(
        (await k('annotate', 'catsrc', 'gk-snapshot', '-n', 'team1', '--overwrite', `${CATALOG_DIR_ANNOTATION}=${src}`))
          .code,
        0,
      );
      await until(
        ['get', 'ip', '-n', 'team1'],
        /gatekeeper-operator-product\.v3\.21\.0\s+Manual\s+false/,
        'an upgrade plan straight to v3.21.0',
      );
      const plan = /install-\w{5}/.exec(
        (
          await k(
            'get',
            'ip',
            '-n',
            'team1',
            '-o',
            'jsonpath={.items[?(@.status.phase=="RequiresApproval")].metadata.name}',
          )
        ).stdout,
      )![0];
      await k('patch', 'ip', plan, '-n', 'team1', '--type', 'merge', '-p', '{"spec":{"approved":true}}');
      await until(
        ['get', 'sub', 'gk', '-n', 'team1', '-o', 'jsonpath={.status.installedCSV} {.status.state}'],
        /^gatekeeper-operator-product\.v3\.21\.0 AtLatestKnown$/,
        'upgraded to v3.21.0',
      );
      assert.match(
        (await k('get', 'csv', '-n', 'team1')).stdout,
        /gatekeeper-operator-product\.v3\.21\.0\s+Gatekeeper Operator\s+3\.21\.0\s+gatekeeper-operator-product\.v3\.19\.1\s+Succeeded/,
      );
    };
  },
);
