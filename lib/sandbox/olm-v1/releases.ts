// Where operator-controller keeps what it installed: Helm release records, stored as Secrets in its
// system namespace (olmv1-system) by helm-operator-plugins' chunked driver — name
// `sh.helm.release.v1.<extension>.v<revision>`, type operatorframework.io/index.v1, labels name,
// owner, status and version, owned by the ClusterExtension so that uninstalling removes them. The
// sandbox keeps the same names, type, labels and owner; the data is its own JSON (the real one is
// Helm's gzip-compressed release), which no client is expected to read. docs/olm-v1/install.md.
import type { ApiServer } from '../server/api-server';
import type { KObject } from '../store/types';

export const SYSTEM_NAMESPACE = 'olmv1-system';

export interface Release {
  revision: number;
  status: 'deployed' | 'failed' | 'superseded';
  bundle: { name: string; version: string; package: string; image: string };
  /** The objects applied, as written (owner labels and references included). */
  manifest: KObject[];
}

const secrets = (api: ApiServer) => api.resources.find('', 'v1', 'secrets')!;

export function releases(api: ApiServer, extension: string): Release[] {
  return api
    .storeList(secrets(api), SYSTEM_NAMESPACE)
    .filter((s) => s.metadata.labels?.owner === 'operator-controller' && s.metadata.labels?.name === extension)
    .map(
      (s) =>
        JSON.parse(
          Buffer.from(String((s.data as { release?: string })?.release ?? ''), 'base64').toString(),
        ) as Release,
    )
    .sort((a, b) => b.revision - a.revision);
}

/** The most recent deployed release: what is installed. */
export function deployedRelease(api: ApiServer, extension: string): Release | undefined {
  return releases(api, extension).find((r) => r.status === 'deployed');
}

export function writeRelease(api: ApiServer, ext: KObject, release: Release): void {
  const name = ext.metadata.name ?? '';
  const r = secrets(api);
  const secretName = `sh.helm.release.v1.${name}.v${release.revision}`;
  const now = String(Math.floor(Date.now() / 1000));
  const body: KObject = {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'operatorframework.io/index.v1',
    metadata: {
      name: secretName,
      namespace: SYSTEM_NAMESPACE,
      labels: {
        name,
        owner: 'operator-controller',
        status: release.status,
        version: String(release.revision),
        key: secretName,
        type: 'index',
        modifiedAt: now,
      },
      ownerReferences: [
        {
          apiVersion: 'olm.operatorframework.io/v1',
          kind: 'ClusterExtension',
          name,
          uid: ext.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    data: { release: Buffer.from(JSON.stringify(release)).toString('base64') },
  };
  const existing = api.storeGet(r, SYSTEM_NAMESPACE, secretName);
  if (existing) api.updateObject(r, { ...body, metadata: { ...existing.metadata, labels: body.metadata.labels } });
  else
    api.createObject(r, {
      ...body,
      metadata: { ...body.metadata, labels: { ...body.metadata.labels, createdAt: now } },
    });
}

/** Marks every earlier deployed release superseded, as a Helm upgrade does. */
export function supersede(api: ApiServer, ext: KObject, below: number): void {
  for (const rel of releases(api, ext.metadata.name ?? ''))
    if (rel.revision < below && rel.status === 'deployed') writeRelease(api, ext, { ...rel, status: 'superseded' });
}
