// What an OpenShift cluster says about pulling images, read as the person: its mirror rules
// (ImageDigestMirrorSet and ImageTagMirrorSet, config.openshift.io/v1; ImageContentSourcePolicy,
// operator.openshift.io/v1alpha1) and the CAs its image configuration trusts for some registries
// (`images.config.openshift.io/cluster` `spec.additionalTrustedCA.name`, a ConfigMap in
// openshift-config whose keys are registry hosts, `host..port` for `host:port`). A kind the
// cluster does not serve, or that this person may not list, gives no rules; the notes say which,
// so that a pull that fails can say the mirrors were not known.
import type { KubeClient, ResourceType } from '../../k8s/client';
import { CONFIG_MAP_TYPE } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import type { MirrorRule } from './mirror-rules';

const config = (plural: string, kind: string): ResourceType => ({
  group: 'config.openshift.io',
  version: 'v1',
  plural,
  namespaced: false,
  kind,
});
export const IDMS_TYPE = config('imagedigestmirrorsets', 'ImageDigestMirrorSet');
export const ITMS_TYPE = config('imagetagmirrorsets', 'ImageTagMirrorSet');
export const IMAGE_CONFIG_TYPE = config('images', 'Image');
export const ICSP_TYPE: ResourceType = {
  group: 'operator.openshift.io',
  version: 'v1alpha1',
  plural: 'imagecontentsourcepolicies',
  namespaced: false,
  kind: 'ImageContentSourcePolicy',
};

export interface ClusterImageConfig {
  /** Whether the cluster serves config.openshift.io/v1 (where openshift-config/pull-secret applies). */
  openshift: boolean;
  rules: MirrorRule[];
  /** PEM by lower-case registry host[:port]. */
  cas: Map<string, string>;
  notes: string[];
}

type Mirrors = { source?: unknown; mirrors?: unknown; mirrorSourcePolicy?: unknown };
type Listed = { metadata?: { name?: string }; spec?: Record<string, unknown> };

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s !== '') : [];

function rulesOf(items: Listed[], field: string, by: MirrorRule['by']): MirrorRule[] {
  const sorted = [...items].sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
  return sorted.flatMap((o) =>
    (Array.isArray(o.spec?.[field]) ? (o.spec[field] as Mirrors[]) : []).flatMap((m) =>
      typeof m.source === 'string' && m.source
        ? [
            {
              source: m.source,
              mirrors: strings(m.mirrors),
              by,
              neverContactSource: m.mirrorSourcePolicy === 'NeverContactSource',
            },
          ]
        : [],
    ),
  );
}

async function listed(
  client: KubeClient,
  t: ResourceType,
  served: Set<string> | undefined,
  notes: string[],
  notServed: string[],
): Promise<Listed[]> {
  if (!served?.has(t.plural)) {
    notServed.push(t.kind);
    return [];
  }
  try {
    return (await client.listAll<Listed>(t)).items;
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    notes.push(`you may not list ${t.plural}.${t.group} (403 Forbidden), so their mirrors were not applied`);
    return [];
  }
}

async function registryCas(client: KubeClient, served: Set<string> | undefined, notes: string[]) {
  const cas = new Map<string, string>();
  if (!served?.has(IMAGE_CONFIG_TYPE.plural)) return cas;
  let name: unknown;
  try {
    const image = await client.get<Listed>(IMAGE_CONFIG_TYPE, 'cluster');
    name = (image.spec?.additionalTrustedCA as { name?: unknown } | undefined)?.name;
  } catch (err) {
    if (isKubeError(err, 404)) return cas;
    if (!isKubeError(err, 403)) throw err;
    notes.push('you may not get images.config.openshift.io cluster (403 Forbidden), so its registry CAs are not used');
    return cas;
  }
  if (typeof name !== 'string' || !name) return cas;
  try {
    const cm = await client.get<{ data?: Record<string, string> }>(CONFIG_MAP_TYPE, name, 'openshift-config');
    for (const [key, pem] of Object.entries(cm.data ?? {}))
      if (typeof pem === 'string' && pem.includes('-----BEGIN CERTIFICATE-----'))
        cas.set(key.replace('..', ':').toLowerCase(), pem);
  } catch (err) {
    if (!isKubeError(err, 403) && !isKubeError(err, 404)) throw err;
    notes.push(
      `${isKubeError(err, 403) ? 'you may not get' : 'there is no'} configmap openshift-config/${name} ` +
        `(the image configuration's additionalTrustedCA; ${(err as { code: number }).code}), so its registry CAs ` +
        'are not used',
    );
  }
  return cas;
}

/** The cluster's image pull configuration, as this person may read it. */
export async function readClusterImageConfig(client: KubeClient): Promise<ClusterImageConfig> {
  const notes: string[] = [];
  const notServed: string[] = [];
  const served = async (group: string, version: string) => {
    const d = await client.discover(group, version);
    return d ? new Set(d.map((r) => r.name)) : undefined;
  };
  const [configV1, operatorV1alpha1] = await Promise.all([
    served('config.openshift.io', 'v1'),
    served('operator.openshift.io', 'v1alpha1'),
  ]);
  const [idms, itms, icsp, cas] = await Promise.all([
    listed(client, IDMS_TYPE, configV1, notes, notServed),
    listed(client, ITMS_TYPE, configV1, notes, notServed),
    listed(client, ICSP_TYPE, operatorV1alpha1, notes, notServed),
    registryCas(client, configV1, notes),
  ]);
  // A cluster serving none of the three is not OpenShift: having no mirrors there is the normal
  // case, and saying so after every failed pull only buries the registry's own reason.
  if (notServed.length && notServed.length < 3)
    notes.push(`the cluster does not serve ${notServed.join(', ')}, so no mirrors of theirs apply`);
  return {
    openshift: configV1 !== undefined,
    rules: [
      ...rulesOf(icsp, 'repositoryDigestMirrors', 'digest').map((r) => ({ ...r, neverContactSource: false })),
      ...rulesOf(idms, 'imageDigestMirrors', 'digest'),
      ...rulesOf(itms, 'imageTagMirrors', 'tag'),
    ],
    cas,
    notes,
  };
}
