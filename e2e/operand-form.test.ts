// Creating an operand from the form, in Debian's Chromium against a production build and a sandbox
// serving a real catalog (okderators): local-storage-operator's bundle carries its LocalVolume CRD
// inline, so the form is built from that CRD's real schema and the CSV's descriptors. The person
// fills it in, is told what is wrong before anything is sent, sees the YAML follow the form and
// the form follow the YAML, creates it, finds it on the Instances tab with the state the operator
// reports, opens it and deletes it. Alice, who may not read CRDs, gets the descriptors' fields
// only and the API server's 422 under the field it names. Status is written here through the
// status subresource, as local-storage-operator would write it. loki-operator (same catalog)
// watches every namespace and names a Secret and a ConfigMap in its LokiStack's descriptors: the
// person chooses the namespace and is offered that namespace's Secrets; bob, who may not list
// Secrets, is told so and types a name. netobserv-operator (same catalog, its CRD given by image)
// shows its Kafka settings only once the deployment model is Kafka (a fieldDependency descriptor).
// cloudnative-pg (certified-operators, its package served as a catalog of its own) names a
// StorageClass and a PriorityClass in its Cluster's descriptors: the cluster's are offered; alice,
// who may not list them, is told so and types a name.
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ensureNamespace, subscribe, waitForCsv } from '../lib/server/testing/cluster';
import { useHarness } from './support/harness';
import { needsSharedCatalogs, sharedCatalog } from '../lib/testing/shared-catalogs';

const CATALOG = sharedCatalog('okderators');
const CSV = 'local-storage-operator.v4.15.0-2024-04-16-164915';
const LV = {
  group: 'local.storage.openshift.io',
  version: 'v1',
  plural: 'localvolumes',
  namespaced: true,
  kind: 'LocalVolume',
};
const CREATE = `/operators/team1/${CSV}/create/local.storage.openshift.io/v1/localvolumes`;
type Obj = { metadata?: { name?: string }; spec?: unknown; status?: unknown };
const LOKI_CSV = 'loki-operator.v5.9.0-2024-05-06-220335';
const LOKI = { group: 'loki.grafana.com', version: 'v1', plural: 'lokistacks', namespaced: true, kind: 'LokiStack' };
const CREATE_LOKI = `/operators/operators/${LOKI_CSV}/create/loki.grafana.com/v1/lokistacks`;
const SECRET = { group: '', version: 'v1', plural: 'secrets', namespaced: true, kind: 'Secret' };
const NETOBSERV_CSV = 'netobserv-operator.v1.6.1';
const CREATE_FLOWS = `/operators/operators/${NETOBSERV_CSV}/create/flows.netobserv.io/v1beta2/flowcollectors`;
const CNPG = sharedCatalog('certified-operators-v4.18', 'cloudnative-pg');
const CNPG_CSV = 'cloudnative-pg.v1.30.0';
const PG_CLUSTER = {
  group: 'postgresql.cnpg.io',
  version: 'v1',
  plural: 'clusters',
  namespaced: true,
  kind: 'Cluster',
};
const CREATE_PG = `/operators/operators/${CNPG_CSV}/create/postgresql.cnpg.io/v1/clusters`;
const STORAGE_CLASS = {
  group: 'storage.k8s.io',
  version: 'v1',
  plural: 'storageclasses',
  namespaced: false,
  kind: 'StorageClass',
};

describe('Create an operand from a form', needsSharedCatalogs, () => {
  const h = useHarness({
    suite: 'operand-form',
    sandbox: { catalogs: [CATALOG] },
    writeCatalogs: (tmp) => {
      cpSync(CNPG, join(tmp, 'certified-pg', 'cloudnative-pg'), { recursive: true });
      return [join(tmp, 'certified-pg')];
    },
    seed: async (kube) => {
      await subscribe(kube, {
        namespace: 'team1',
        package: 'local-storage-operator',
        channel: 'alpha',
        source: 'okderators',
        targets: ['team1'],
      });
      await waitForCsv(kube, 'team1', CSV);
      // The sandbox's global OperatorGroup in operators: loki-operator watches every namespace.
      await subscribe(kube, {
        namespace: 'operators',
        package: 'loki-operator',
        channel: 'alpha',
        source: 'okderators',
      });
      await waitForCsv(kube, 'operators', LOKI_CSV);
      await subscribe(kube, {
        namespace: 'operators',
        package: 'netobserv-operator',
        channel: 'alpha',
        source: 'okderators',
      });
      await waitForCsv(kube, 'operators', NETOBSERV_CSV);
      await subscribe(kube, {
        namespace: 'operators',
        package: 'cloudnative-pg',
        channel: 'stable-v1',
        source: 'certified-pg',
      });
      await waitForCsv(kube, 'operators', CNPG_CSV);
      for (const name of ['fast-ssd', 'standard'])
        await kube.create(STORAGE_CLASS, { metadata: { name }, provisioner: 'example.com/disk' });
      await ensureNamespace(kube, 'team2');
      await kube.create(SECRET, {
        metadata: { name: 'loki-s3', namespace: 'team2' },
        data: { bucketnames: Buffer.from('logs').toString('base64') },
      });
      await kube.create(SECRET, {
        metadata: { name: 'team1-only', namespace: 'team1' },
        data: { k: Buffer.from('v').toString('base64') },
      });
    },
  });

  test('from Instances: the form, its checks, YAML both ways, created, listed with its state, opened, deleted', async () => {
    const page = await h.open(`/operators/team1/${CSV}?tab=instances`);
    await page.getByRole('link', { name: 'Create LocalVolume', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Create Local Volume' }).waitFor();
    assert.equal(await page.getByRole('tab', { name: 'Form' }).getAttribute('aria-selected'), 'true');
    // Labelled by the CSV's spec descriptors, in their order.
    const spec = (await page.getByRole('group', { name: 'Spec' }).textContent()) ?? '';
    const at = ['Requested management state', 'LogLevel', 'NodeSelector', 'StorageClassDevices', 'Tolerations'].map(
      (l) => spec.indexOf(l),
    );
    assert.ok(
      at.every((i, n) => i >= 0 && (n === 0 || i > at[n - 1]!)),
      `labels in the descriptors' order, then the schema's: ${at.join(', ')}`,
    );

    await page.getByLabel('Name', { exact: true }).fill('disks');
    // The schema's pattern, checked as the person types.
    await page.getByLabel('Requested management state').fill('Sometimes');
    await page
      .getByText('Invalid value: "Sometimes": should match \'^(Managed|Unmanaged|Force|Removed)$\'')
      .first()
      .waitFor();
    await page.getByLabel('Requested management state').fill('Managed');
    // The schema's enum is a select.
    await page.getByLabel('LogLevel').selectOption('Debug');
    await page.getByRole('button', { name: 'Add to StorageClassDevices' }).click();
    await page.getByRole('button', { name: 'Create LocalVolume' }).click();
    // Each device requires storageClassName: nothing is sent until it is there.
    await page
      .getByRole('alert')
      .filter({ hasText: 'spec.storageClassDevices[0].storageClassName: Required value' })
      .waitFor();
    assert.equal((await h.kube.list(LV, { namespace: 'team1' })).items.length, 0);
    await page.getByLabel('Storage class name').fill('local-sc');
    await page.getByRole('button', { name: 'Add to Device paths' }).click();
    await page.getByLabel('Device paths 1').fill('/dev/vdb');
    await h.shot(page, 'form');

    // The YAML view holds the same object; an edit there is the form's too.
    await page.getByRole('tab', { name: 'YAML' }).click();
    const yaml = page.getByLabel('LocalVolume YAML');
    const text = await yaml.inputValue();
    assert.match(
      text,
      /managementState: Managed\n {2}logLevel: Debug\n {2}storageClassDevices:\n {4}- storageClassName: local-sc\n {6}devicePaths:\n {8}- \/dev\/vdb/,
    );
    await yaml.fill(text.replace('local-sc', 'local-fast'));
    await h.shot(page, 'yaml');
    await page.getByRole('tab', { name: 'Form' }).click();
    assert.equal(await page.getByLabel('Storage class name').inputValue(), 'local-fast');

    await page.getByRole('button', { name: 'Create LocalVolume' }).click();
    await page.getByRole('heading', { level: 1, name: 'disks' }).waitFor();
    const stored = await h.kube.get<Obj>(LV, 'disks', 'team1');
    assert.deepEqual(stored.spec, {
      managementState: 'Managed',
      logLevel: 'Debug',
      storageClassDevices: [{ storageClassName: 'local-fast', devicePaths: ['/dev/vdb'] }],
    });

    // local-storage-operator reports an Available condition (and readyReplicas, which its CRD's status requires).
    await h.kube.replace(
      LV,
      {
        ...stored,
        status: {
          managementState: 'Managed',
          readyReplicas: 1,
          conditions: [
            {
              type: 'Available',
              status: 'True',
              reason: 'DaemonSetsAvailable',
              message: 'Ready',
              lastTransitionTime: '2026-01-01T00:00:00Z',
            },
          ],
        },
      },
      'status',
    );
    await page.goto(`${h.admin.url}/operators/team1/${CSV}?tab=instances`);
    const table = page.getByRole('table', { name: 'LocalVolume instances' });
    await table.getByRole('row').filter({ hasText: 'disks' }).filter({ hasText: 'Available' }).waitFor();
    await h.shot(page, 'instances');
    await table.getByRole('link', { name: 'disks' }).click();
    await page.getByRole('heading', { level: 1, name: 'disks' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete disks?' })
      .getByRole('button', { name: 'Delete LocalVolume' })
      .click();
    await page.getByText('disks is deleted').waitFor();
    assert.equal((await h.kube.list(LV, { namespace: 'team1' })).items.length, 0);
    await page.close();
  });

  test("without the CRD's schema: the descriptors' fields, and the API server's 422 under the field it names", async () => {
    const page = await h.openAs('alice', CREATE);
    await page.getByText(/you may not read the CRD localvolumes\.local\.storage\.openshift\.io/).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('mine');
    // Without the schema the form cannot know the pattern: the API server checks it.
    await page.getByLabel('Requested management state').fill('Sometimes');
    await page.getByRole('button', { name: 'Create LocalVolume' }).click();
    await page.getByRole('alert').filter({ hasText: 'The API server refused it' }).waitFor();
    const issue = page.locator('#f-spec_managementState-issues');
    assert.equal(
      await issue.textContent(),
      'Invalid value: "Sometimes": spec.managementState in body should match \'^(Managed|Unmanaged|Force|Removed)$\'',
    );
    assert.equal(await page.getByLabel('Requested management state').getAttribute('aria-invalid'), 'true');
    await h.shot(page, 'server-422');
    assert.equal((await h.kube.list(LV, { namespace: 'team1' })).items.length, 0);
    await page.close();
  });

  test("another namespace the operator watches, and a Secret picked from that namespace's", async () => {
    const page = await h.open(CREATE_LOKI);
    await page.getByRole('heading', { level: 1, name: 'Create LokiStack' }).waitFor();
    const namespace = page.getByLabel('Namespace', { exact: true });
    // Starts where the operator runs; it watches every namespace, so any the admin can list.
    assert.equal(await namespace.inputValue(), 'operators');
    await page.getByText('The operator watches every namespace.').waitFor();
    await namespace.selectOption('team2');
    const secret = page.getByLabel('Object Storage Secret Name');
    // team2's Secrets are offered, not team1's.
    const offered = page.locator(`datalist#${await secret.getAttribute('id')}-names option`);
    await offered.first().waitFor({ state: 'attached' });
    assert.deepEqual(await offered.evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)), ['loki-s3']);
    await secret.fill('loki-s3');
    await page.getByLabel('Object Storage Secret Type').selectOption('s3');
    await page.getByText('in team2', { exact: false }).first().waitFor();
    await h.shot(page, 'pickers');

    // The YAML view holds the choice too.
    await page.getByRole('tab', { name: 'YAML' }).click();
    assert.match(await page.getByLabel('LokiStack YAML').inputValue(), /\n {2}namespace: team2\n/);
    await page.getByRole('tab', { name: 'Form' }).click();

    await page.getByRole('button', { name: 'Create LokiStack' }).click();
    await page.getByRole('heading', { level: 1, name: 'lokistack-sample' }).waitFor();
    const stored = await h.kube.get<Obj & { spec: { storage?: { secret?: unknown } } }>(
      LOKI,
      'lokistack-sample',
      'team2',
    );
    assert.deepEqual(stored.spec.storage?.secret, { name: 'loki-s3', type: 's3' });
    assert.equal((await h.kube.list(LOKI, { namespace: 'operators' })).items.length, 0);
    await page.close();
  });

  test('a person who may not list Secrets is told so and types a name', async () => {
    const page = await h.openAs('bob', CREATE_LOKI);
    await page.getByRole('heading', { level: 1, name: 'Create LokiStack' }).waitFor();
    await page.getByText('you may not list Secrets in operators; type a name').waitFor();
    const secret = page.getByLabel('Object Storage Secret Name');
    await secret.fill('typed-by-hand');
    assert.equal(await secret.inputValue(), 'typed-by-hand');
    await h.shot(page, 'picker-forbidden');
    await page.close();
  });

  test('a field that depends on another appears once that one holds its value (fieldDependency)', async () => {
    const page = await h.open(CREATE_FLOWS);
    await page.getByRole('heading', { level: 1, name: 'Create Flow Collector' }).waitFor();
    const deploymentModel = page.getByLabel('Deployment model', { exact: true });
    await deploymentModel.waitFor();
    const kafka = page.getByText('Kafka configuration', { exact: true });
    assert.equal(await kafka.count(), 0, 'hidden while the model is not Kafka');
    // The CRD comes by image, so its schema is open: the example's numbers and lists are not refused as strings.
    assert.equal(await page.getByText('Fix these before creating').count(), 0);
    await deploymentModel.fill('Kafka');
    await kafka.waitFor();
    await h.shot(page, 'field-dependency');
    await deploymentModel.fill('Direct');
    await kafka.waitFor({ state: 'detached' });
    await page.close();
  });

  test("a StorageClass and a PriorityClass picked from the cluster's", async () => {
    const page = await h.open(CREATE_PG);
    await page.getByRole('heading', { level: 1, name: 'Create Cluster' }).waitFor();
    const storageClass = page.getByLabel('Storage Class', { exact: true });
    const names = async (field: typeof storageClass) => {
      const list = page.locator(`datalist[id="${await field.getAttribute('id')}-names"] option`);
      await list.first().waitFor({ state: 'attached' });
      return list.evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    };
    assert.deepEqual(await names(storageClass), ['fast-ssd', 'standard']);
    await storageClass.fill('fast-ssd');
    const priority = page.getByLabel('Priority Class Name', { exact: true });
    await page.locator('details', { has: priority }).last().locator('> summary').click();
    assert.deepEqual(await names(priority), ['system-cluster-critical', 'system-node-critical']);
    await priority.fill('system-cluster-critical');
    await h.shot(page, 'cluster-pickers');
    await page.getByRole('tab', { name: 'YAML' }).click();
    const yaml = await page.getByLabel('Cluster YAML').inputValue();
    assert.match(yaml, /\n {2}priorityClassName: system-cluster-critical\n/);
    assert.match(yaml, /\n {4}storageClass: fast-ssd\n/);
    await page.getByRole('tab', { name: 'Form' }).click();
    await page.getByRole('button', { name: 'Create Cluster' }).click();
    await page.getByRole('heading', { level: 1, name: 'Create Cluster' }).waitFor({ state: 'detached' });
    const [stored] = (
      await h.kube.list<Obj & { spec: { priorityClassName?: string; storage?: { storageClass?: string } } }>(
        PG_CLUSTER,
        { namespace: 'operators' },
      )
    ).items;
    assert.deepEqual(
      [stored?.spec.storage?.storageClass, stored?.spec.priorityClassName],
      ['fast-ssd', 'system-cluster-critical'],
    );
    await page.close();
  });

  test("alice, admin of team1 only, builds the form from OLM's copy; she may not list StorageClasses, is told so and types a name", async () => {
    const page = await h.openAs('alice', `/operators/team1/${CNPG_CSV}/create/postgresql.cnpg.io/v1/clusters`);
    await page.getByRole('heading', { level: 1, name: 'Create Cluster' }).waitFor();
    await page
      .getByText(
        '(the operator runs in operators, where you may not read it; OLM copied it here because it watches this namespace)',
      )
      .waitFor();
    await page.getByText('you may not list StorageClasses; type a name').waitFor();
    const storageClass = page.getByLabel('Storage Class', { exact: true });
    await storageClass.fill('typed-by-hand');
    assert.equal(await storageClass.inputValue(), 'typed-by-hand');
    await h.shot(page, 'cluster-picker-forbidden');
    await page.close();
  });
});
