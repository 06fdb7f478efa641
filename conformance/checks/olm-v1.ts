// OLM v1 as a client reads it: the generated catalog served as a ClusterCatalog by catalogd, and
// ClusterExtensions installed from it by operator-controller, the same scenarios on the sandbox
// and on the real cluster (scripts/cluster.ts runs operator-controller and catalogd v1.2.0). Each
// scenario installs a package of its own (conformance/main.ts adds them to the generated
// catalog), since one CRD can belong to one ClusterExtension only: they run side by side. Until
// the sandbox serves olm.operatorframework.io/v1, conformance/main.ts runs them on the real
// cluster alone and says so.
import { gunzipSync } from 'node:zlib';
import type { Check } from '../run-checks';
import { call } from '../target';
import { resourceFacts } from './api';
import { must, until, type Obj } from './olm-read';
import {
  V1,
  V1_CATALOG,
  condition,
  content,
  extension,
  grant,
  installer,
  isInstalled,
  isRetrying,
  ownedObjects,
  patchCatalog,
  readExtension,
  settledExtension,
  uninstall,
  type RawAnswer,
} from './olm-v1-read';

/** The packages the v1 scenarios install, each with the same graph (conformance/main.ts). */
export const V1_PACKAGES = [
  'v1latest',
  'v1range',
  'v1channel',
  'v1upgrade',
  'v1downgrade',
  'v1rbac',
  'v1missing',
  'v1shared',
  'v1deprecated',
  'v1uninstall',
];

/** A ClusterExtension's scenario: installer and extension, settled, read, then removed. */
async function scenario(
  t: Parameters<Check['run']>[0],
  pkg: string,
  catalog: Record<string, unknown>,
  done: (e: Obj) => boolean,
): Promise<unknown> {
  const ns = `conf-${pkg}`;
  await installer(t, ns);
  await extension(t, pkg, ns, { packageName: pkg, ...catalog });
  const read = readExtension(await settledExtension(t, pkg, done));
  return { extension: read, objects: await ownedObjects(t, pkg) };
}

/**
 * A content answer as a client compares it: status, the headers catalogd sets, the body's lines.
 * What differs by nature is replaced: the time of the unpack (Last-Modified), a bundle's own
 * image (its first key, as catalogd writes keys in order; the real cluster names its bundle images
 * in its own registry, by digest), and so the total size in a Content-Range.
 */
function answer(a: RawAnswer, gzip = false): unknown {
  const h = a.headers;
  const body = gzip && h['content-encoding'] === 'gzip' ? gunzipSync(Buffer.from(a.body, 'latin1')).toString() : a.body;
  return {
    status: a.status,
    headers: {
      'content-type': h['content-type'],
      'content-encoding': h['content-encoding'],
      'content-range': h['content-range']?.replace(/\/\d+$/, '/<size>'),
      'content-length': h['content-length'] === undefined ? undefined : '<present>',
      vary: h.vary,
      'accept-ranges': h['accept-ranges'],
      'x-content-type-options': h['x-content-type-options'],
      'last-modified': h['last-modified'] === undefined ? undefined : '<http-date>',
    },
    lines: body
      .split('\n')
      .map((l) => l.replace(/^\{"image":"[^"]*"(?=,.*"schema":"olm\.bundle")/, '{"image":"<image>"')),
  };
}

export const olmV1Checks: Check[] = [
  {
    id: 'olm-v1/discovery: the group and its kinds',
    independent: true,
    run: async (t) => {
      const groups = (await call(t, { path: '/apis' })).body as {
        groups: { name: string; versions: { groupVersion: string }[]; preferredVersion: { groupVersion: string } }[];
      };
      const group = groups.groups.find((g) => g.name === 'olm.operatorframework.io');
      return {
        group: group && { versions: group.versions.map((v) => v.groupVersion), preferred: group.preferredVersion },
        resources: resourceFacts((await call(t, { path: V1 })).body as Parameters<typeof resourceFacts>[0]),
      };
    },
  },
  {
    id: 'olm-v1/ClusterExtensions the CRD refuses, in its words',
    independent: true,
    run: async (t) => {
      const refused = async (name: string, catalog: Record<string, unknown>, serviceAccount = 'installer') => {
        const r = await call(t, {
          method: 'POST',
          path: `${V1}/clusterextensions`,
          body: {
            apiVersion: 'olm.operatorframework.io/v1',
            kind: 'ClusterExtension',
            metadata: { name },
            spec: {
              namespace: 'conf-v1-refused',
              serviceAccount: { name: serviceAccount },
              source: { sourceType: 'Catalog', catalog },
            },
          },
        });
        const body = r.body as { reason?: string; message?: string; details?: unknown };
        return { status: r.status, reason: body.reason, message: body.message, details: body.details };
      };
      return {
        hyphenRange: await refused('v1-refused-a', { packageName: 'v1latest', version: '1.2 - 1.4' }),
        packageName: await refused('v1-refused-b', { packageName: 'Not_A_Name' }),
        channel: await refused('v1-refused-c', { packageName: 'v1latest', channels: ['Bad Channel'] }),
        policy: await refused('v1-refused-d', { packageName: 'v1latest', upgradeConstraintPolicy: 'Whatever' }),
        serviceAccount: await refused('v1-refused-e', { packageName: 'v1latest' }, 'Bad_Account'),
      };
    },
  },
  {
    id: 'olm-v1/catalog served: ClusterCatalog status and content API',
    independent: true,
    run: async (t) => {
      const cc = await until(t, `ClusterCatalog ${V1_CATALOG} to serve`, async () => {
        const c = await must(t, 'GET', `${V1}/clustercatalogs/${V1_CATALOG}`);
        const serving = (c.status?.conditions as { type: string; status: string }[] | undefined)?.find(
          (x) => x.type === 'Serving',
        );
        return serving?.status === 'True' ? c : undefined;
      });
      const st = cc.status as { urls: { base: string }; resolvedSource: { image: { ref: string } } };
      const base = st.urls.base;
      const origin = new URL(base).origin;
      const all = await content(t, `${base}/api/v1/all`);
      return {
        metadata: {
          name: cc.metadata.name,
          labels: cc.metadata.labels,
          finalizers: (cc.metadata as { finalizers?: string[] }).finalizers,
        },
        spec: { ...cc.spec, source: '<image of the catalog>' },
        status: {
          ...cc.status,
          // The image and the server differ by nature; their shapes are what a client relies on.
          resolvedSource: /@sha256:[0-9a-f]{64}$/.test(st.resolvedSource.image.ref) ? 'a digest' : st.resolvedSource,
          urls: { base: base.replace(origin, '<catalogd>') },
        },
        all: answer(all),
        allGzip: answer(await content(t, `${base}/api/v1/all`, 'GET', { 'accept-encoding': 'gzip' }), true),
        notModified: answer(
          await content(t, `${base}/api/v1/all`, 'GET', { 'if-modified-since': all.headers['last-modified'] ?? '' }),
        ),
        range: answer(await content(t, `${base}/api/v1/all`, 'GET', { range: 'bytes=0-99' })),
        rangeOutside: answer(await content(t, `${base}/api/v1/all`, 'GET', { range: 'bytes=99999999-' })),
        head: answer(await content(t, `${base}/api/v1/all`, 'HEAD')),
        post: answer(await content(t, `${base}/api/v1/all`, 'POST')),
        metas: answer(await content(t, `${base}/api/v1/metas?schema=olm.package`)),
        otherCatalog: answer(await content(t, `${origin}/catalogs/no-such-catalog/api/v1/all`)),
        otherPath: answer(await content(t, `${base}/api/v2/all`)),
      };
    },
  },
  {
    id: 'olm-v1/install the latest: no version, no channel',
    independent: true,
    run: (t) => scenario(t, 'v1latest', {}, isInstalled('2.1.0')),
  },
  {
    id: 'olm-v1/install a version range',
    independent: true,
    run: (t) => scenario(t, 'v1range', { version: '>=1.0.0 <2.0.0' }, isInstalled('1.2.0')),
  },
  {
    id: 'olm-v1/install from a channel',
    independent: true,
    run: (t) => scenario(t, 'v1channel', { channels: ['stable'] }, isInstalled('2.0.0')),
  },
  {
    id: 'olm-v1/upgrade by changing the range; a jump past the graph refused',
    independent: true,
    run: async (t) => {
      const first = await scenario(t, 'v1upgrade', { version: '1.0.0' }, isInstalled('1.0.0'));
      await patchCatalog(t, 'v1upgrade', { version: '1.1.0' });
      const upgraded = readExtension(await settledExtension(t, 'v1upgrade', isInstalled('1.1.0')));
      // 2.0.0 replaces 1.2.0, not 1.1.0: no edge from what is installed.
      await patchCatalog(t, 'v1upgrade', { version: '2.0.0' });
      const jump = readExtension(await settledExtension(t, 'v1upgrade', isRetrying));
      return { first, upgraded, jump };
    },
  },
  {
    id: 'olm-v1/downgrade refused, then allowed with SelfCertified',
    independent: true,
    run: async (t) => {
      const first = await scenario(t, 'v1downgrade', { version: '1.2.0' }, isInstalled('1.2.0'));
      await patchCatalog(t, 'v1downgrade', { version: '1.0.0' });
      const refused = readExtension(await settledExtension(t, 'v1downgrade', isRetrying));
      await patchCatalog(t, 'v1downgrade', { version: '1.0.0', upgradeConstraintPolicy: 'SelfCertified' });
      const allowed = readExtension(await settledExtension(t, 'v1downgrade', isInstalled('1.0.0')));
      return { first, refused, allowed, objects: await ownedObjects(t, 'v1downgrade') };
    },
  },
  {
    id: 'olm-v1/a ServiceAccount without rights, then granted',
    independent: true,
    run: async (t) => {
      const ns = 'conf-v1rbac';
      await installer(t, ns, false);
      await extension(t, 'v1rbac', ns, { packageName: 'v1rbac', version: '1.0.0' });
      const refused = readExtension(await settledExtension(t, 'v1rbac', isRetrying));
      const nothing = await ownedObjects(t, 'v1rbac');
      await grant(t, ns);
      const installed = readExtension(await settledExtension(t, 'v1rbac', isInstalled('1.0.0')));
      return { refused, nothing, installed, objects: await ownedObjects(t, 'v1rbac') };
    },
  },
  {
    id: 'olm-v1/a package, a version or a ServiceAccount that does not exist',
    independent: true,
    run: async (t) => {
      const ns = 'conf-v1missing';
      await installer(t, ns);
      await extension(t, 'v1missing-package', ns, { packageName: 'v1-no-such-package' });
      await extension(t, 'v1missing-version', ns, { packageName: 'v1missing', version: '9.9.9' });
      await extension(t, 'v1missing-channel', ns, { packageName: 'v1missing', channels: ['no-such-channel'] });
      await must(t, 'POST', `${V1}/clusterextensions`, {
        apiVersion: 'olm.operatorframework.io/v1',
        kind: 'ClusterExtension',
        metadata: { name: 'v1missing-sa' },
        spec: {
          namespace: ns,
          serviceAccount: { name: 'no-such-account' },
          source: { sourceType: 'Catalog', catalog: { packageName: 'v1missing' } },
        },
      });
      const out: Record<string, unknown> = {};
      for (const name of ['v1missing-package', 'v1missing-version', 'v1missing-channel', 'v1missing-sa'])
        out[name] = readExtension(
          await settledExtension(t, name, (e) => condition(e, 'Progressing')?.reason === 'Retrying'),
        );
      return out;
    },
  },
  {
    id: 'olm-v1/two extensions owning one CRD: the second refused',
    independent: true,
    run: async (t) => {
      const first = await scenario(t, 'v1shared', { version: '1.0.0' }, isInstalled('1.0.0'));
      const ns = 'conf-v1shared-second';
      await installer(t, ns);
      await extension(t, 'v1shared-second', ns, { packageName: 'v1shared', version: '1.0.0' });
      const second = readExtension(await settledExtension(t, 'v1shared-second', isRetrying));
      return { first, second, secondObjects: await ownedObjects(t, 'v1shared-second') };
    },
  },
  {
    id: 'olm-v1/deprecations: package, channel and bundle',
    independent: true,
    run: async (t) => ({
      deprecated: await scenario(t, 'v1deprecated', { version: '1.0.0', channels: ['stable'] }, isInstalled('1.0.0')),
    }),
  },
  {
    id: 'olm-v1/uninstall removes what the extension installed, its CRD included',
    independent: true,
    run: async (t) => {
      const installed = await scenario(t, 'v1uninstall', { version: '1.0.0' }, isInstalled('1.0.0'));
      await uninstall(t, 'v1uninstall');
      const crd = await must(t, 'GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions');
      return {
        installed,
        left: await ownedObjects(t, 'v1uninstall'),
        crdLeft: (crd.items as Obj[]).some((c) => c.metadata.name === 'v1uninstalls.v1uninstall.example.com'),
      };
    },
  },
];
