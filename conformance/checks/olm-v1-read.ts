// What the OLM v1 checks do and read on either cluster: a ServiceAccount and its rights, a
// ClusterExtension written and changed, and what a client reads once operator-controller has
// settled: the extension's conditions and status.install, the objects it owns, the ClusterCatalog
// and catalogd's content API. Each reduced to what differs only by name, time or address.
import { request } from 'node:https';
import { call, type Target } from '../target';
import { must, until, type Obj } from './olm-read';

export const V1 = '/apis/olm.operatorframework.io/v1';
/** The catalog the v1 scenarios install from: conformance/main.ts's generated one. */
export const V1_CATALOG = 'generated';
const OWNER = 'olm.operatorframework.io/owner-name';

/** Whether the cluster serves OLM v1's API at all. */
export async function servesOlmV1(t: Target): Promise<boolean> {
  return (await call(t, { path: V1 })).status === 200;
}

/** A namespace, a ServiceAccount in it, and (unless `rights` is false) cluster-admin for it. */
export async function installer(t: Target, ns: string, rights = true): Promise<void> {
  await must(t, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await must(t, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'installer' },
  });
  if (rights) await grant(t, ns);
}

/** Binds cluster-admin to the namespace's installer ServiceAccount. */
export async function grant(t: Target, ns: string): Promise<void> {
  await must(t, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: `${ns}-installer` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: ns }],
  });
}

/** Creates a ClusterExtension named `name` installing into namespace `ns` with its installer. */
export async function extension(t: Target, name: string, ns: string, catalog: Record<string, unknown>): Promise<void> {
  await must(t, 'POST', `${V1}/clusterextensions`, {
    apiVersion: 'olm.operatorframework.io/v1',
    kind: 'ClusterExtension',
    metadata: { name },
    spec: {
      namespace: ns,
      serviceAccount: { name: 'installer' },
      source: { sourceType: 'Catalog', catalog },
    },
  });
}

export async function patchCatalog(t: Target, name: string, catalog: Record<string, unknown>): Promise<void> {
  await must(t, 'PATCH', `${V1}/clusterextensions/${name}`, { spec: { source: { catalog } } });
}

type Condition = { type: string; status: string; reason: string; message: string; observedGeneration?: number };

const conditionsOf = (o: Obj | undefined) => ((o?.status?.conditions ?? []) as Condition[]).slice();

/**
 * The ClusterExtension once operator-controller has answered its latest generation and `done`
 * holds, and nothing in its status changed for 3 s (a retry rewrites the same words).
 */
export async function settledExtension(t: Target, name: string, done: (e: Obj) => boolean, ms = 120_000): Promise<Obj> {
  let last = '';
  let since = Date.now();
  return until(
    t,
    `ClusterExtension ${name} to settle`,
    async () => {
      const e = await must(t, 'GET', `${V1}/clusterextensions/${name}`);
      const generation = (e.metadata as { generation?: number }).generation;
      const answered = conditionsOf(e).some((c) => c.type === 'Progressing' && c.observedGeneration === generation);
      const now = JSON.stringify(e.status);
      if (now !== last) [last, since] = [now, Date.now()];
      return answered && done(e) && Date.now() - since >= 3000 ? e : undefined;
    },
    ms,
  );
}

export const condition = (e: Obj, type: string) => conditionsOf(e).find((c) => c.type === type);
export const installedVersion = (e: Obj) =>
  (e.status?.install as { bundle?: { version?: string } } | undefined)?.bundle?.version;
export const isInstalled = (version: string) => (e: Obj) =>
  condition(e, 'Installed')?.status === 'True' && installedVersion(e) === version;
export const isRetrying = (e: Obj) => condition(e, 'Progressing')?.reason === 'Retrying';

/**
 * Where the bundle came from differs by nature: the real cluster pulls each bundle from its own
 * registry (a loopback port, a digest), so the image named in a message is replaced.
 */
export const bundleImage = (s: string) =>
  s.replace(/Installed bundle \S+ successfully/g, 'Installed bundle <image> successfully');

/** What a client reads of a ClusterExtension: labels, finalizers, spec, conditions, status.install. */
export function readExtension(e: Obj): unknown {
  return {
    name: e.metadata.name,
    labels: e.metadata.labels ?? {},
    // Sorted: operator-controller adds its two finalizers by walking a Go map (controller-runtime's
    // finalizer.Finalizers), so their order changes from one extension to the next.
    finalizers: [...((e.metadata as { finalizers?: string[] }).finalizers ?? [])].sort(),
    spec: e.spec,
    conditions: conditionsOf(e)
      .sort((a, b) => a.type.localeCompare(b.type))
      .map((c) => ({ ...c, message: bundleImage(c.message) })),
    install: e.status?.install,
  };
}

/** The kinds a bundle of the generated catalog installs, where to list them. */
const OWNED: [string, string][] = [
  ['CustomResourceDefinition', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions'],
  ['ClusterRole', '/apis/rbac.authorization.k8s.io/v1/clusterroles'],
  ['ClusterRoleBinding', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings'],
  ['Role', '/apis/rbac.authorization.k8s.io/v1/roles'],
  ['RoleBinding', '/apis/rbac.authorization.k8s.io/v1/rolebindings'],
  ['ServiceAccount', '/api/v1/serviceaccounts'],
  ['Deployment', '/apis/apps/v1/deployments'],
];

/**
 * The objects the extension owns (operator-controller labels each with its name), by kind,
 * namespace and name, with the owner labels and Helm's annotations a client sees on them.
 */
export async function ownedObjects(t: Target, ext: string): Promise<string[]> {
  const out: string[] = [];
  for (const [kind, path] of OWNED) {
    const items = (await must(t, 'GET', `${path}?labelSelector=${encodeURIComponent(`${OWNER}=${ext}`)}`))
      .items as Obj[];
    for (const o of items)
      out.push(
        `${kind} ${o.metadata.namespace ?? ''}/${o.metadata.name} ${JSON.stringify({
          managedBy: o.metadata.labels?.['app.kubernetes.io/managed-by'],
          ownerKind: o.metadata.labels?.['olm.operatorframework.io/owner-kind'],
          release: o.metadata.annotations?.['meta.helm.sh/release-name'],
          releaseNamespace: o.metadata.annotations?.['meta.helm.sh/release-namespace'],
        })}`,
      );
  }
  return out.sort();
}

/** Deletes the extension and waits until it and every object it owned are gone (garbage collection). */
export async function uninstall(t: Target, ext: string): Promise<void> {
  await must(t, 'DELETE', `${V1}/clusterextensions/${ext}`);
  await until(t, `ClusterExtension ${ext} to be gone`, async () =>
    (await call(t, { path: `${V1}/clusterextensions/${ext}` })).status === 404 ? true : undefined,
  );
  await until(t, `the objects of ${ext} to be collected`, async () =>
    (await ownedObjects(t, ext)).length === 0 ? true : undefined,
  );
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A request to catalogd's content server, trusting the cluster's CA; the body as bytes (gzip left as is). */
export function content(
  t: Target,
  url: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, ca: t.ca, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = String(v);
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('latin1') });
      });
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`${t.name}: ${method} ${url} timed out`)));
    req.on('error', reject);
    req.end();
  });
}
