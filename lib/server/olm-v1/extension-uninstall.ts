// Uninstalling a ClusterExtension, as the person. OLM v1 never uninstalls a release: deleting the
// extension lets Kubernetes garbage collection delete every object that carries its
// ownerReference, CRDs included, and with each CRD every instance of it in the cluster
// (docs/olm-v1/extensions.md#uninstall). So the preview counts those instances, per CRD, as the
// person (saying where a count could not be made), and the delete needs the extension's name typed
// and the spec the person saw.
// The ServiceAccount v1 installs with and its rights are left behind by v1; those the console's
// install made for this extension are offered to delete too, and nothing else (install-access.ts).
import type { ExtensionUninstallPreview, UninstallCrd } from '../../api/olm-v1-extensions';
import type { KubeClient } from '../../k8s/client';
import { CRD_TYPE } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import type { KubeObject, ResourceType } from '../../olm/resources/common';
import { ApiError } from '../api-error';
import { checkFresh } from '../operators';
import { accessReview } from '../permissions';
import { OWNER_NAME_LABEL } from './extension-objects';
import { installAccess, type AccessObject } from './install-access';
import { ACCESS_TYPES, installerRoleName } from './install-mark';
import { CLUSTER_EXTENSION_TYPE, OLM_V1_GROUP, type ClusterExtension } from './resources';

interface Crd extends KubeObject {
  spec?: {
    group?: string;
    scope?: string;
    names?: { plural?: string; kind?: string };
    versions?: { name: string; served?: boolean; storage?: boolean }[];
  };
}

async function countInstances(client: KubeClient, crd: Crd): Promise<UninstallCrd> {
  const name = crd.metadata?.name ?? '';
  const version = crd.spec?.versions?.find((v) => v.storage)?.name ?? crd.spec?.versions?.find((v) => v.served)?.name;
  const type: ResourceType = {
    group: crd.spec?.group ?? '',
    version: version ?? '',
    plural: crd.spec?.names?.plural ?? '',
    namespaced: crd.spec?.scope !== 'Cluster',
    kind: crd.spec?.names?.kind ?? '',
  };
  const base = { name, ...(type.kind ? { kind: type.kind } : {}) };
  if (!version || !type.plural) return { ...base, instances: { problem: 'the CRD names no served version' } };
  try {
    return { ...base, instances: (await client.listAll<KubeObject>(type)).items.length };
  } catch (err) {
    if (isKubeError(err, 403))
      return { ...base, instances: { problem: `you may not list ${type.plural}.${type.group} in every namespace` } };
    if (isKubeError(err, 404)) return { ...base, instances: 0 };
    throw err;
  }
}

export async function extensionUninstallPreview(client: KubeClient, name: string): Promise<ExtensionUninstallPreview> {
  const ce = await client.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, name);
  let crdsProblem: string | undefined;
  let crds: Crd[] = [];
  try {
    crds = (await client.listAll<Crd>(CRD_TYPE, { labelSelector: `${OWNER_NAME_LABEL}=${name}` })).items;
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    crdsProblem = 'you may not list CustomResourceDefinitions, so the CRDs it deletes cannot be named or counted';
  }
  const [counted, { offered, notOffered, problems }, canDelete] = await Promise.all([
    Promise.all(crds.map((c) => countInstances(client, c))),
    installAccess(client, ce),
    accessReview(client, 'delete', OLM_V1_GROUP, 'clusterextensions', undefined, name),
  ]);
  return {
    name,
    generation: ce.metadata?.generation ?? 0,
    crds: counted.sort((a, b) => a.name.localeCompare(b.name)),
    ...(crdsProblem ? { crdsProblem } : {}),
    access: offered.map(({ kind, name, namespace }) => ({ kind, name, ...(namespace ? { namespace } : {}) })),
    notOffered,
    accessProblems: problems,
    canDelete,
  };
}

export interface UninstallRequest {
  /** The extension's generation when the person looked: a spec change since is a 409. */
  seen: number;
  confirm: string;
  alsoDelete: AccessObject[];
}

export interface UninstallOutcome {
  kind: string;
  name: string;
  namespace?: string;
  outcome: 'deleted' | 'already-gone' | 'failed';
  message?: string;
}

const keyOf = (a: { kind: string; name: string; namespace?: string }) => `${a.kind}/${a.namespace ?? ''}/${a.name}`;

/**
 * Deletes the extension at the generation the person saw, then the access objects they chose.
 * Each chosen object is judged again now, as the preview judged it: one not offered now is a 400
 * before any delete, naming it and why. Each delete carries the uid and resourceVersion it was
 * judged at, so an object changed in between (its mark taken, a subject added) is not deleted.
 */
export async function uninstallExtension(
  client: KubeClient,
  name: string,
  req: UninstallRequest,
): Promise<{ name: string; access: UninstallOutcome[] }> {
  if (req.confirm !== name)
    throw new ApiError(
      400,
      'BadRequest',
      `deleting ${name} deletes its CRDs and every instance of them: confirm by typing its name, "${name}"`,
    );
  const ce = await client.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, name);
  // Judged by the spec the person saw (its generation), not the resourceVersion: operator-controller
  // writes status on every pass, and a status write does not change what the delete takes with it.
  checkFresh('ClusterExtension', name, String(ce.metadata?.generation ?? 0), String(req.seen), 'its spec changed');
  const judged = req.alsoDelete.length ? await installAccess(client, ce) : undefined;
  const offered = new Map((judged?.offered ?? []).map((o) => [keyOf(o), o]));
  const stray = req.alsoDelete.find((a) => !offered.has(keyOf(a)));
  if (stray) {
    const why = judged?.notOffered.find((n) => keyOf(n) === keyOf(stray))?.reason;
    throw new ApiError(
      400,
      'BadRequest',
      `${stray.kind} ${stray.namespace ? `${stray.namespace}/` : ''}${stray.name} is not offered with ${name}` +
        (why
          ? `: ${why}`
          : `: only the ServiceAccount and ${installerRoleName(name)} roles and bindings the console's install ` +
            'made for it are'),
    );
  }
  // The uid precondition: never a same-named extension made since.
  await client.delete(CLUSTER_EXTENSION_TYPE, name, ce.metadata?.uid ? { uid: ce.metadata.uid } : {});
  const access: UninstallOutcome[] = [];
  for (const a of req.alsoDelete) {
    const o = offered.get(keyOf(a))!;
    try {
      await client.delete(ACCESS_TYPES[a.kind], a.name, {
        ...(a.namespace ? { namespace: a.namespace } : {}),
        ...(o.uid ? { uid: o.uid } : {}),
        ...(o.resourceVersion ? { resourceVersion: o.resourceVersion } : {}),
      });
      access.push({ ...a, outcome: 'deleted' });
    } catch (err) {
      if (isKubeError(err, 404)) access.push({ ...a, outcome: 'already-gone' });
      else if (isKubeError(err, 409))
        access.push({ ...a, outcome: 'failed', message: 'it changed after it was checked, so it was kept' });
      else access.push({ ...a, outcome: 'failed', message: (err as Error).message });
    }
  }
  return { name, access };
}
