// The sandbox the OLM flow tests (operators.*.test.ts) drive: a fixture catalog with the packages
// they install, the sandbox serving it, clients as the console makes them, and the requests the
// tests repeat. Each test file gets a sandbox of its own; its tests run in order and may build on
// each other, never on another file's.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before } from 'node:test';
import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { writeFixtureCatalog } from '../../testing/fbc-fixture';
import { withSandbox } from '../../testing/sandbox-fixture';

export const OLM = 'operators.coreos.com';
export const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
export type Obj = {
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
};

export async function until<T>(fn: () => Promise<T | undefined | false>, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export type FlowSandbox = Awaited<ReturnType<typeof withSandbox>>;

/** Registers the sandbox's start and stop with the calling describe; answers its clients and helpers. */
export function olmFlow() {
  let sb: FlowSandbox;
  let custom: CustomObjectsApi;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  const v1Dir = () => join(sb.dir, 'cat-v1');
  const v2Dir = () => join(sb.dir, 'cat-v2');

  before(async () => {
    // A catalog that will be replaced by newer content during the tests.
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'olm-fixture-'));
    writeFixtureCatalog(join(dir, 'cat-v1'), [
      {
        name: 'ladder',
        bundles: [
          { version: '1.0.0' },
          { version: '1.1.0', replaces: '1.0.0' },
          { version: '1.2.0', replaces: '1.1.0' },
        ],
      },
      { name: 'webhook', bundles: [{ version: '1.0.0' }] },
      {
        name: 'ownonly',
        bundles: [{ version: '1.0.0', installModes: { AllNamespaces: false, SingleNamespace: false } }],
      },
      {
        name: 'needy',
        bundles: [{ version: '1.0.0', requiresGvk: { group: 'nowhere.example.com', version: 'v1', kind: 'Ghost' } }],
      },
      {
        name: 'certs',
        group: 'certs.example.com',
        kind: 'Certificate',
        bundles: [{ version: '1.0.0' }, { version: '1.1.0', replaces: '1.0.0' }],
      },
      {
        name: 'secure',
        bundles: [
          { version: '2.0.0', requiresGvk: { group: 'certs.example.com', version: 'v1', kind: 'Certificate' } },
        ],
      },
      { name: 'gw-a', group: 'net.example.com', kind: 'Gateway', bundles: [{ version: '1.0.0' }] },
      { name: 'gw-b', group: 'net.example.com', kind: 'Gateway', bundles: [{ version: '1.0.0' }] },
      {
        name: 'tenant',
        bundles: [{ version: '1.0.0', requiresPackage: { packageName: 'certs', versionRange: '>=1.0.0 <1.1.0' } }],
      },
    ]);
    writeFixtureCatalog(join(dir, 'cat-v2'), [
      { name: 'webhook', bundles: [{ version: '1.0.0' }, { version: '1.1.0', replaces: '1.0.0' }] },
    ]);
    sb = await withSandbox({ catalogs: [join(dir, 'cat-v1')], deploymentDelayMs: 30 });
    // keep the catalog folders with the sandbox's own temp dir for cleanup by the OS
    Object.assign(sb, { fixtureDir: dir });
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    custom = kc.makeApiClient(CustomObjectsApi);
    core = kc.makeApiClient(CoreV1Api);
    apps = kc.makeApiClient(AppsV1Api);
    void v1Dir;
    void v2Dir;
  });
  after(() => sb.close());

  const get = (plural: string, ns: string, name: string, version = 'v1alpha1') =>
    custom.getNamespacedCustomObject({ group: OLM, version, namespace: ns, plural, name }) as Promise<Obj>;
  const list = async (plural: string, ns: string, version = 'v1alpha1') =>
    ((await custom.listNamespacedCustomObject({ group: OLM, version, namespace: ns, plural })) as { items: Obj[] })
      .items;
  const create = (plural: string, ns: string, body: object, version = 'v1alpha1') =>
    custom.createNamespacedCustomObject({ group: OLM, version, namespace: ns, plural, body });
  const ns = async (name: string) => core.createNamespace({ body: { metadata: { name } } });
  const subscribe = (namespace: string, pkg: string, extra: Record<string, unknown> = {}) =>
    create('subscriptions', namespace, {
      apiVersion: `${OLM}/v1alpha1`,
      kind: 'Subscription',
      metadata: { name: pkg },
      spec: { name: pkg, source: 'cat-v1', sourceNamespace: 'olm', channel: 'stable', ...extra },
    });
  const phaseOf = async (namespace: string, csv: string) =>
    (await get('clusterserviceversions', namespace, csv)).status as { phase?: string; reason?: string } | undefined;
  const pendingPlan = (namespace: string) =>
    until(
      async () =>
        (await list('installplans', namespace)).find(
          (p) => (p.status as { phase?: string } | undefined)?.phase === 'RequiresApproval',
        ),
      'an InstallPlan waiting for approval',
    );
  const approve = (namespace: string, name: string) =>
    custom.patchNamespacedCustomObject(
      { group: OLM, version: 'v1alpha1', namespace, plural: 'installplans', name, body: { spec: { approved: true } } },
      merge,
    );

  return {
    get sb() {
      return sb;
    },
    get custom() {
      return custom;
    },
    get core() {
      return core;
    },
    get apps() {
      return apps;
    },
    get,
    list,
    create,
    ns,
    subscribe,
    phaseOf,
    pendingPlan,
    approve,
  };
}
