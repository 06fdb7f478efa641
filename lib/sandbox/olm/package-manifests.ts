// packageserver: one PackageManifest per package per healthy CatalogSource, built as OLM builds
// it (docs/olm/packageserver.md): channels by name with their head as currentCSV and its
// description, entries by version descending, labels from the catalog and the default head.
import type { PackageModel } from '../../olm/fbc/model';
import { compareVersions, tryParseVersionTolerant, type SemVer } from '../../olm/semver/version';
import type { KObject } from '../store/types';
import { csvJsonOf, headOf } from '../registry/messages';

export interface CatalogSourceFacts {
  name: string;
  namespace: string;
  displayName?: string;
  publisher?: string;
  labels?: Record<string, string>;
  creationTimestamp?: string;
}

export interface BuiltManifest {
  manifest: KObject;
  /** The default head's first icon, served by the icon subresource. */
  icon?: { data: Buffer; mediatype: string; etag: string };
}

type Csv = {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
};

const ZERO: SemVer = { major: 0, minor: 0, patch: 0, pre: [], build: [] };

function cutDown(list: unknown): unknown {
  if (!Array.isArray(list)) return undefined;
  return list.map((d: Record<string, unknown>) => ({
    name: d.name,
    version: d.version,
    kind: d.kind,
    displayName: d.displayName,
    description: d.description,
    ...(d.group ? { group: d.group } : {}),
  }));
}

function describe(csv: Csv, version: string | undefined): Record<string, unknown> {
  const spec = csv.spec ?? {};
  const crds = spec.customresourcedefinitions as { owned?: unknown; required?: unknown } | undefined;
  const apis = spec.apiservicedefinitions as { owned?: unknown; required?: unknown } | undefined;
  const related = new Set<string>();
  for (const r of (spec.relatedImages as { image?: string }[] | undefined) ?? []) if (r.image) related.add(r.image);
  // operator-registry's GetOperatorImages: containers and init containers of a `deployment`
  // install strategy only.
  type Pod = { containers?: { image?: string }[]; initContainers?: { image?: string }[] };
  const install = spec.install as
    { strategy?: string; spec?: { deployments?: { spec?: { template?: { spec?: Pod } } }[] } } | undefined;
  const deployments = install?.strategy === 'deployment' ? (install.spec?.deployments ?? []) : [];
  for (const d of deployments) {
    const pod = d.spec?.template?.spec;
    for (const c of [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])]) if (c.image) related.add(c.image);
  }
  const out: Record<string, unknown> = {
    displayName: spec.displayName,
    icon: spec.icon,
    version: spec.version ?? version,
    provider: spec.provider,
    annotations: csv.metadata?.annotations,
    keywords: spec.keywords,
    links: spec.links,
    maintainers: spec.maintainers,
    maturity: spec.maturity,
    description: spec.description,
    installModes: spec.installModes,
    // Struct fields in package-server's Go types: written even when the CSV has none (`{}`).
    customresourcedefinitions: { owned: cutDown(crds?.owned), required: cutDown(crds?.required) },
    apiservicedefinitions: { owned: cutDown(apis?.owned), required: cutDown(apis?.required) },
    nativeApis: spec.nativeAPIs,
    minKubeVersion: spec.minKubeVersion,
    relatedImages: related.size ? [...related] : undefined,
  };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

/** The PackageManifest of one package in one catalog, or undefined when no channel survives. */
export function buildPackageManifest(cs: CatalogSourceFacts, pkg: PackageModel): BuiltManifest | undefined {
  const usable = [...pkg.bundles.values()].filter((b) => !b.legacyDeprecated);
  const usableNames = new Set(usable.map((b) => b.name));
  const channels: Record<string, unknown>[] = [];
  const heads = new Map<string, { csv: Csv; name: string }>();
  for (const ch of [...pkg.channels.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    const head = headOf(pkg, ch.name);
    if (!head || !usableNames.has(head.name)) continue;
    const json = csvJsonOf(pkg, head);
    if (!json) continue;
    let csv: Csv;
    try {
      csv = JSON.parse(json) as Csv;
    } catch {
      continue;
    }
    heads.set(ch.name, { csv, name: head.name });
    const entries = ch.entries
      .filter((e) => usableNames.has(e.name))
      .map((e) => {
        const b = pkg.bundles.get(e.name)!;
        return {
          name: e.name,
          version: b.version ?? '',
          v: tryParseVersionTolerant(b.version) ?? ZERO,
          deprecation: b.deprecation,
        };
      })
      .sort((a, b) => compareVersions(b.v, a.v))
      .map(({ name, version, deprecation }) => ({
        name,
        version,
        ...(deprecation ? { deprecation: { message: deprecation } } : {}),
      }));
    channels.push({
      name: ch.name,
      currentCSV: head.name,
      currentCSVDesc: describe(csv, head.version),
      entries,
      ...(ch.deprecation ? { deprecation: { message: ch.deprecation } } : {}),
    });
  }
  if (channels.length === 0) return undefined;
  const defaultChannel =
    pkg.defaultChannel && heads.has(pkg.defaultChannel) ? pkg.defaultChannel : (channels[0]!.name as string);
  const defaultHead = heads.get(defaultChannel)!;
  const provider = (defaultHead.csv.spec?.provider as { name?: string; url?: string } | undefined) ?? {};
  const labels: Record<string, string> = {
    ...cs.labels,
    catalog: cs.name,
    'catalog-namespace': cs.namespace,
    provider: provider.name ?? '',
    'provider-url': provider.url ?? '',
    ...defaultHead.csv.metadata?.labels,
  };
  // package-server's setDefaultOsArchLabels: each default stands alone, so a CSV that names only
  // its architectures still gets os.linux.
  if (!Object.keys(labels).some((k) => k.startsWith('operatorframework.io/os')))
    labels['operatorframework.io/os.linux'] = 'supported';
  if (!Object.keys(labels).some((k) => k.startsWith('operatorframework.io/arch')))
    labels['operatorframework.io/arch.amd64'] = 'supported';
  const manifest: KObject = {
    apiVersion: 'packages.operators.coreos.com/v1',
    kind: 'PackageManifest',
    metadata: { name: pkg.name, namespace: cs.namespace, labels, creationTimestamp: cs.creationTimestamp },
    spec: {},
    status: {
      catalogSource: cs.name,
      catalogSourceDisplayName: cs.displayName ?? '',
      catalogSourcePublisher: cs.publisher ?? '',
      catalogSourceNamespace: cs.namespace,
      provider,
      packageName: pkg.name,
      ...(pkg.deprecation ? { deprecation: { message: pkg.deprecation } } : {}),
      defaultChannel,
      channels,
    },
  };
  const iconList = defaultHead.csv.spec?.icon as { base64data?: string; mediatype?: string }[] | undefined;
  // The media type becomes a Content-Type header of the icon subresource: one a header cannot
  // carry (CR/LF, anything but a type/subtype token) leaves the package without an icon.
  const first = iconList?.find((i) => i.base64data && typeof i.mediatype === 'string' && MEDIA_TYPE.test(i.mediatype));
  const icon = first
    ? {
        data: Buffer.from(first.base64data!, 'base64'),
        mediatype: first.mediatype!,
        etag: `"${pkg.name}.${defaultChannel}.${defaultHead.name}"`,
      }
    : undefined;
  return { manifest, icon };
}

const MEDIA_TYPE =
  /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(\s*;\s*[A-Za-z0-9!#$&^_.+-]+=("[^"\r\n]*"|[A-Za-z0-9!#$&^_.+-]+))*$/;

/** Get and list remove icons: the icon subresource serves them. */
export function withoutIcons(m: KObject, namespace: string): KObject {
  const status = m.status as { channels: { currentCSVDesc?: { icon?: unknown } }[] };
  return {
    ...m,
    metadata: { ...m.metadata, namespace },
    status: {
      ...status,
      channels: status.channels.map((c) => ({
        ...c,
        currentCSVDesc: c.currentCSVDesc ? { ...c.currentCSVDesc, icon: undefined } : undefined,
      })),
    },
  };
}

/** packageserver's fallback icon when a package has none. */
export const DEFAULT_ICON_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="8" fill="#d2d2d2"/><path d="M20 22h24v20H20z" fill="#8a8d90"/></svg>',
);
