// What an OperatorHub tile and its filters need to know about a package, read defensively from
// the default channel head's CSV (catalog content is third-party: numbers where strings belong,
// missing annotations, JSON lists written as text).
import type { BundleModel, PackageModel } from '../olm/fbc/model';
import { Keys } from '../olm/resources/common';
import { packageChannelGraph } from '../olm/graph/from-model';
import { installModeChoices } from '../olm/install-modes/wizard';
import type { InstallMode } from '../olm/resources/cluster-service-version';
import type { PackageSummary } from '../hub/package-summary';
import { csvOfBundle, jsonStringList, str, supportedLabels, type CsvLike } from '../olm/resources/csv-description';
import { infrastructureFeatures } from '../olm/resources/infrastructure-features';

export type { PackageSummary };

function firstSentences(text: string, max = 220): string {
  const plain = text
    .replace(/[#*_`>[\]]/g, '')
    .replace(/\([^)]*\)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, max);
  const stop = cut.lastIndexOf('. ');
  return stop > 60 ? cut.slice(0, stop + 1) : `${cut.replace(/\s+\S*$/, '')}…`;
}

/** The channel a tile describes (the default one, else the first by name) and its head. */
export function summaryHead(pkg: PackageModel): { channel?: string; head?: BundleModel } {
  const channel =
    pkg.defaultChannel && pkg.channels.has(pkg.defaultChannel)
      ? pkg.defaultChannel
      : [...pkg.channels.keys()].sort()[0];
  const graph = channel ? packageChannelGraph(pkg, channel) : undefined;
  return { channel, head: graph?.head ? pkg.bundles.get(graph.head) : undefined };
}

/**
 * `headCsv` is the head's CSV when the model has none of it: a registry's ListBundles leaves out
 * the `olm.bundle.object` properties, where older catalogs keep their only copy of the CSV.
 */
export function summarizePackage(
  pkg: PackageModel,
  catalog: PackageSummary['catalog'],
  headCsv?: CsvLike,
): PackageSummary {
  const { channel, head } = summaryHead(pkg);
  const csv = headCsv ?? (head ? csvOfBundle(head) : undefined);
  const ann = csv?.metadata?.annotations ?? {};
  const labels = csv?.metadata?.labels ?? {};
  const spec = csv?.spec ?? {};
  const provider = spec.provider as { name?: unknown } | undefined;
  const description = str(ann[Keys.description]) ?? str(spec.description) ?? pkg.description ?? '';
  return {
    name: pkg.name,
    catalog,
    displayName: str(spec.displayName) ?? pkg.name,
    provider: str(provider?.name) ?? '',
    shortDescription: firstSentences(description),
    categories: (str(ann[Keys.categories]) ?? '')
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean),
    capability: str(ann[Keys.capabilities]),
    keywords: Array.isArray(spec.keywords) ? spec.keywords.map(str).filter((k): k is string => !!k) : [],
    defaultChannel: channel,
    headVersion: head?.version,
    ...(head ? { headBundle: head.name } : {}),
    installModes: installModeChoices(
      Array.isArray(spec.installModes) ? (spec.installModes as InstallMode[]) : undefined,
    ),
    infrastructureFeatures: infrastructureFeatures(ann as Record<string, unknown>),
    validSubscription: jsonStringList(ann[Keys.validSubscription]),
    deprecation: pkg.deprecation,
    nonStandalone: str(ann[Keys.operatorType]) === 'non-standalone',
    arch: supportedLabels(labels, Keys.archLabelPrefix),
    os: supportedLabels(labels, Keys.osLabelPrefix),
    ...(csv ? { hasIcon: !!pkg.icon || carriesIcon(spec.icon) } : {}),
  };
}

/** A CSV's `spec.icon` with data (opm writes the package's icon there, or an empty one). */
function carriesIcon(icon: unknown): boolean {
  return (
    Array.isArray(icon) &&
    icon.some(
      (i) =>
        typeof (i as { base64data?: unknown })?.base64data === 'string' &&
        (i as { base64data: string }).base64data.length > 0,
    )
  );
}

interface ManifestLike {
  metadata?: { name?: string; labels?: Record<string, string> };
  status?: {
    catalogSource?: string;
    catalogSourceNamespace?: string;
    catalogSourceDisplayName?: string;
    provider?: { name?: string };
    defaultChannel?: string;
    deprecation?: { message?: string };
    channels?: {
      name: string;
      currentCSVDesc?: {
        displayName?: string;
        version?: string;
        description?: string;
        keywords?: unknown;
        installModes?: unknown;
        annotations?: Record<string, unknown>;
        icon?: unknown;
      };
    }[];
  };
}

/**
 * A summary from a PackageManifest, for catalogs a person can see only through packageserver
 * (no registry access): the same facts, read from the default channel's currentCSVDesc.
 */
export function summarizeManifest(pm: ManifestLike): PackageSummary {
  const st = pm.status ?? {};
  const channel = st.channels?.find((c) => c.name === st.defaultChannel) ?? st.channels?.[0];
  const desc = channel?.currentCSVDesc ?? {};
  const ann = desc.annotations ?? {};
  const labels = pm.metadata?.labels ?? {};
  const name = pm.metadata?.name ?? '';
  return {
    name,
    catalog: {
      name: st.catalogSource ?? '',
      namespace: st.catalogSourceNamespace ?? '',
      displayName: st.catalogSourceDisplayName,
    },
    displayName: desc.displayName || name,
    provider: st.provider?.name ?? '',
    shortDescription: firstSentences(str(ann[Keys.description]) ?? desc.description ?? ''),
    categories: (str(ann[Keys.categories]) ?? '')
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean),
    capability: str(ann[Keys.capabilities]),
    keywords: Array.isArray(desc.keywords) ? desc.keywords.map(str).filter((k): k is string => !!k) : [],
    defaultChannel: channel?.name,
    headVersion: desc.version,
    installModes: installModeChoices(
      Array.isArray(desc.installModes) ? (desc.installModes as InstallMode[]) : undefined,
    ),
    infrastructureFeatures: infrastructureFeatures(ann as Record<string, unknown>),
    validSubscription: jsonStringList(ann[Keys.validSubscription]),
    deprecation: st.deprecation?.message,
    nonStandalone: str(ann[Keys.operatorType]) === 'non-standalone',
    arch: supportedLabels(labels, Keys.archLabelPrefix),
    os: supportedLabels(labels, Keys.osLabelPrefix),
  };
}
