// The aggregated PackageManifest API (packages.operators.coreos.com/v1): read-only, computed from
// the healthy catalogs. A namespaced list shows that namespace's catalogs plus the global catalog
// namespace's, every item rewritten into the namespace asked for (docs/olm/packageserver.md#namespaces).
import type { ServedResource } from '../server/resources';
import type { KObject } from '../store/types';
import type { CatalogSources } from './catalog-sources';
import { DEFAULT_ICON_SVG, withoutIcons } from './package-manifests';

export function packageManifestResource(catalogs: CatalogSources): ServedResource {
  const visible = (namespace: string | undefined) => {
    const out: { manifest: KObject; icon?: { data: Buffer; mediatype: string; etag: string }; namespace: string }[] =
      [];
    const entries = catalogs.healthy().sort((a, b) => a.key.localeCompare(b.key));
    for (const e of entries) {
      if (namespace && e.namespace !== namespace && e.namespace !== catalogs.globalNamespace) continue;
      for (const m of [...e.manifests.values()].sort((a, b) =>
        (a.manifest.metadata.name ?? '').localeCompare(b.manifest.metadata.name ?? ''),
      )) {
        out.push({ ...m, namespace: namespace ?? e.namespace });
      }
    }
    return out;
  };
  return {
    group: 'packages.operators.coreos.com',
    versions: ['v1'],
    resource: 'packagemanifests',
    singular: 'packagemanifest',
    kind: 'PackageManifest',
    listKind: 'PackageManifestList',
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: ['get', 'list'],
    hasStatus: false,
    columns: [
      { name: 'Catalog', type: 'string', jsonPath: '.status.catalogSourceDisplayName' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
    provider: {
      list: (namespace) => visible(namespace).map((v) => withoutIcons(v.manifest, v.namespace)),
      get: (namespace, name) => {
        const v = visible(namespace).find((x) => x.manifest.metadata.name === name);
        return v ? withoutIcons(v.manifest, v.namespace) : undefined;
      },
      subresources: ['icon'],
      subresource: (namespace, name, sub, req) => {
        if (sub !== 'icon') return undefined;
        const v = visible(namespace).find((x) => x.manifest.metadata.name === name);
        if (!v) return undefined;
        if (!v.icon) return { status: 200, contentType: 'image/svg+xml', body: DEFAULT_ICON_SVG };
        if (req.ifNoneMatch === v.icon.etag)
          return { status: 304, contentType: v.icon.mediatype, body: Buffer.alloc(0), etag: v.icon.etag };
        return { status: 200, contentType: v.icon.mediatype, body: v.icon.data, etag: v.icon.etag };
      },
    },
  };
}
