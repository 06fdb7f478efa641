// What a ClusterExtension install plan needs, read as the person: the package's channels and
// versions in the catalog the wizard came from; the bundle v1 would resolve to now (the catalogs
// the person may read, walked as operator-controller walks them) and how v1.2.0 renders it (its
// manifests from the catalog, or from its image: lib/server/bundle-images); whether
// the namespace, the account and an extension of that name exist; what they may create
// (SelfSubjectAccessReview); and the API server's own validation of the ClusterExtension (a dry run).
import type { V1PackageView } from '../../api/olm-v1-install';
import type { KubeClient } from '../../k8s/client';
import { NAMESPACE_TYPE, SERVICE_ACCOUNT_TYPE, rbacType } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import type { PackageModel } from '../../olm/fbc/model';
import { compareVersions, tryParseVersion } from '../../olm/semver/version';
import type { LabelSelector } from '../../olm/resources/common';
import { clusterExtensionObject, type V1InstallFacts, type V1InstallRequest } from '../../olm/v1/install-plan';
import { renderBundle } from '../../olm/v1/render-bundle';
import { resolveBundle } from '../../olm/v1/resolve';
import { ApiError } from '../api-error';
import { bundleManifests } from '../bundle-images/bundle-manifests';
import { step } from '../install-step';
import { accessReview } from '../permissions';
import type { V1InstallBody } from './install';
import { packageInCatalogs, readableCatalogs } from './readable-catalogs';
import { CLUSTER_EXTENSION_TYPE, OLM_V1_GROUP, type ClusterExtension } from './resources';

// catalogd labels every ClusterCatalog with its own name (its mutating webhook), so a selector
// on that label picks one catalog.
const CATALOG_NAME_LABEL = 'olm.operatorframework.io/metadata.name';

function packageView(pkg: PackageModel): V1PackageView {
  const versionOf = (bundle: string) => pkg.bundles.get(bundle)?.version;
  const highestFirst = (vs: (string | undefined)[]) =>
    [...new Set(vs.filter((v): v is string => !!v && !!tryParseVersion(v)))].sort((a, b) =>
      compareVersions(tryParseVersion(b)!, tryParseVersion(a)!),
    );
  const csvName = (pkg.bundles.values().next().value?.csvMetadata as { displayName?: string } | undefined)?.displayName;
  return {
    name: pkg.name,
    ...(csvName ? { displayName: csvName } : {}),
    ...(pkg.defaultChannel ? { defaultChannel: pkg.defaultChannel } : {}),
    channels: [...pkg.channels.values()].map((c) => ({
      name: c.name,
      versions: highestFirst(c.entries.map((e) => versionOf(e.name))),
      ...(c.deprecation ? { deprecation: c.deprecation } : {}),
    })),
    versions: highestFirst([...pkg.bundles.values()].map((b) => b.version)),
  };
}

async function exists(read: () => Promise<unknown>): Promise<boolean | 'unknown'> {
  try {
    await read();
    return true;
  } catch (err) {
    if (isKubeError(err, 404)) return false;
    if (isKubeError(err, 403)) return 'unknown';
    throw err;
  }
}

async function denied(client: KubeClient, verb: string, group: string, resource: string, namespace?: string) {
  const r = await accessReview(client, verb, group, resource, namespace);
  return r.allowed ? undefined : r.reason;
}

export async function gatherV1InstallFacts(
  client: KubeClient,
  body: V1InstallBody,
): Promise<{ facts: V1InstallFacts; pkg: V1PackageView }> {
  const catalogs = await step('listing the ClusterCatalogs', () => readableCatalogs(client));
  if (!catalogs)
    throw new ApiError(404, 'NotFound', 'This cluster does not serve OLM v1 (olm.operatorframework.io/v1).');
  const home = catalogs.find((c) => c.facts.name === body.catalog);
  if (!home)
    throw new ApiError(404, 'NotFound', `ClusterCatalog ${body.catalog} does not exist, or you may not read it.`);
  const content = await home.content;
  const model = content.catalog?.packages.get(body.packageName);
  if (!model)
    throw new ApiError(
      404,
      'NotFound',
      content.summary.read
        ? `ClusterCatalog ${body.catalog} has no package ${body.packageName}.`
        : `The content of ClusterCatalog ${body.catalog} cannot be read: ${content.summary.why}`,
    );

  const selector: LabelSelector | undefined = body.onlyThisCatalog
    ? { matchLabels: { [CATALOG_NAME_LABEL]: body.catalog } }
    : undefined;
  const request: V1InstallRequest = {
    name: body.name,
    packageName: body.packageName,
    namespace: body.namespace,
    serviceAccount: body.serviceAccount.name,
    grant: body.serviceAccount.grant,
    ...(body.version ? { version: body.version } : {}),
    channels: body.channels,
    ...(selector ? { selector } : {}),
    upgradeConstraintPolicy: body.upgradeConstraintPolicy,
  };

  const walked = await packageInCatalogs(catalogs, body.packageName, selector);
  const resolved =
    'error' in walked
      ? walked
      : resolveBundle(
          request,
          walked.map((w) => w.pkg),
        );
  let rendered: V1InstallFacts['rendered'];
  if (!('error' in resolved)) {
    const winner = 'error' in walked ? undefined : walked.find((w) => w.pkg.catalog === resolved.catalog);
    const manifests = await step(`reading the manifests of bundle ${resolved.bundle.name}`, () =>
      bundleManifests(
        resolved.bundle,
        undefined,
        winner ? { client, catalog: { kind: 'ClusterCatalog', name: winner.pkg.catalog } } : { client },
      ),
    );
    rendered =
      'unknown' in manifests
        ? { unknown: `${manifests.unknown}${winner ? ` (ClusterCatalog ${winner.pkg.catalog})` : ''}` }
        : renderBundle(manifests.csv, manifests.others, body.namespace);
  }

  const ns = body.namespace;
  const [namespaceExists, serviceAccountExists, existing, createNamespace, createServiceAccount, createExtension] =
    await Promise.all([
      step(`reading namespace ${ns}`, () => exists(() => client.get(NAMESPACE_TYPE, ns))),
      step(`reading ServiceAccount ${ns}/${body.serviceAccount.name}`, () =>
        exists(() => client.get(SERVICE_ACCOUNT_TYPE, body.serviceAccount.name, ns)),
      ),
      step(`reading ClusterExtension ${body.name}`, () => readExisting(client, body.name)),
      step('checking whether you may create namespaces', () => denied(client, 'create', '', 'namespaces')),
      step(`checking whether you may create ServiceAccounts in ${ns}`, () =>
        denied(client, 'create', '', 'serviceaccounts', ns),
      ),
      step('checking whether you may create ClusterExtensions', () =>
        denied(client, 'create', OLM_V1_GROUP, 'clusterextensions'),
      ),
    ]);
  const grantRbac = (
    await step('checking whether you may grant the installer its rights', () =>
      Promise.all([
        denied(client, 'create', 'rbac.authorization.k8s.io', 'clusterroles'),
        denied(client, 'create', 'rbac.authorization.k8s.io', 'clusterrolebindings'),
        denied(client, 'create', 'rbac.authorization.k8s.io', 'roles', ns),
        denied(client, 'create', 'rbac.authorization.k8s.io', 'rolebindings', ns),
      ]),
    )
  ).find((d) => d);

  // The installer's rights are not the extension's: an earlier install of this name leaves them.
  const rbacName = `${body.name}-installer`;
  const rbacExisting = (
    await step(`reading the rights named ${rbacName}`, () =>
      Promise.all(
        (['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'] as const).map(async (kind) =>
          (await exists(() => client.get(rbacType(kind), rbacName, kind.startsWith('Role') ? ns : undefined))) === true
            ? [`${kind} ${rbacName}`]
            : [],
        ),
      ),
    )
  ).flat();

  // The API server's validation (the CRD's rules: version expression, names) in its own words.
  let invalid: string | undefined;
  if (!existing && !createExtension) {
    try {
      await client.create(CLUSTER_EXTENSION_TYPE, clusterExtensionObject(request), { dryRun: true });
    } catch (err) {
      if (isKubeError(err, 422) || isKubeError(err, 400)) invalid = err.message;
      else if (!isKubeError(err, 409) && !isKubeError(err, 403)) throw err;
    }
  }

  const facts: V1InstallFacts = {
    request,
    namespaceExists,
    serviceAccountExists,
    ...(existing ? { existing } : {}),
    resolution:
      'error' in resolved
        ? { error: resolved.error }
        : { bundle: resolved.bundle.name, version: resolved.version, catalog: resolved.catalog },
    ...(rendered ? { rendered } : {}),
    ...(invalid ? { invalid } : {}),
    ...(rbacExisting.length ? { rbacExisting } : {}),
    denied: {
      ...(createNamespace ? { createNamespace } : {}),
      ...(createServiceAccount ? { createServiceAccount } : {}),
      ...(createExtension ? { createExtension } : {}),
      ...(grantRbac ? { grantRbac } : {}),
    },
  };
  return { facts, pkg: packageView(model) };
}

async function readExisting(client: KubeClient, name: string): Promise<V1InstallFacts['existing']> {
  try {
    const ce = await client.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, name);
    return {
      ...(ce.spec?.source?.catalog?.packageName ? { packageName: ce.spec.source.catalog.packageName } : {}),
      conditions: (ce.status?.conditions ?? []).map((c) => ({
        type: c.type,
        status: c.status,
        ...(c.reason ? { reason: c.reason } : {}),
        ...(c.message ? { message: c.message } : {}),
      })),
    };
  } catch (err) {
    if (isKubeError(err, 404) || isKubeError(err, 403)) return undefined;
    throw err;
  }
}
