// What an install needs to know, gathered as the person: the version's facts from the catalog
// index, the namespace, its OperatorGroups and Subscriptions, what the person may not do (by
// access reviews), OpenShift's objects, and for a scoped install the service account's namespace
// and the bundle's (and its dependencies') manifests. lib/olm/install/plan.ts decides from them.
import { type PackageLookup } from '../catalog/catalog-index';
import { detailsFromManifest, detailsFromModel } from '../catalog/package-details';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import { type InstallFacts, type InstallRequest, type VersionFacts } from '../olm/install/plan';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../olm/resources/catalog-source';
import { CSV_TYPE, ownedCrds, type ClusterServiceVersion } from '../olm/resources/cluster-service-version';
import { dependencyInstalls } from '../olm/resolution/dependencies';
import type { BundleContent } from '../olm/install/scoped-install';
import type { ResourceType } from '../olm/resources/common';
import { OPERATOR_GROUP_TYPE, type OperatorGroup } from '../olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { ApiError } from './api-error';
import { accessReview } from './permissions';
import { assertValidConfig } from './subscription-config';
import { gatherOpenShiftFacts, openShiftChoices } from './openshift-install';
import { NAMESPACE_TYPE, SERVICE_ACCOUNT_TYPE } from '../k8s/core-kinds';
import type { InstallBody } from './install';
import { step } from './install-step';
import { formatApi } from '../olm/install-modes/provided-apis';
import { catalogIndexOf } from './fleet/catalog-indexes';
import { bundleManifests } from './bundle-images/bundle-manifests';

async function listOrEmpty<T extends object>(
  client: KubeClient,
  t: ResourceType,
  namespace?: string,
): Promise<T[] | undefined> {
  try {
    return (await client.listAll<T>(t, namespace ? { namespace } : {})).items;
  } catch (err) {
    if (isKubeError(err, 403)) return undefined;
    if (isKubeError(err, 404)) return [];
    throw err;
  }
}

async function namespaceExists(client: KubeClient, name: string): Promise<boolean | 'unknown'> {
  try {
    await client.get(NAMESPACE_TYPE, name);
    return true;
  } catch (err) {
    if (isKubeError(err, 404)) return false;
    if (isKubeError(err, 403)) return 'unknown';
    throw err;
  }
}

async function versionFacts(
  client: KubeClient,
  lookup: PackageLookup,
  body: InstallBody,
): Promise<{ facts: VersionFacts; catalog: InstallFacts['catalog'] }> {
  const sel = { channel: body.channel, version: body.version };
  if (lookup.source === 'registry') {
    const brief = detailsFromModel(lookup.pkg, lookup.catalog, sel);
    const full = await catalogIndexOf(client).fullCsv(
      lookup.address,
      lookup.pkg.name,
      brief.selected.channel,
      brief.selected.csvName,
      lookup.cacheKey,
    );
    const d = full ? detailsFromModel(lookup.pkg, lookup.catalog, sel, full) : brief;
    const bundle = lookup.pkg.bundles.get(d.selected.csvName);
    const channel = d.channels.find((c) => c.name === d.selected.channel);
    return {
      facts: {
        csvName: d.selected.csvName,
        version: d.selected.version,
        isHead: d.selected.isHead,
        headCsvName: channel?.head,
        installModes: d.selected.csv?.installModes ?? [],
        providedApis: (bundle?.providedApis ?? []).map(formatApi),
        suggestedNamespaceTemplate: d.selected.csv?.suggestedNamespaceTemplate,
        nonStandalone: d.selected.csv?.nonStandalone ?? false,
        deprecations: deprecationsOf(
          d.deprecation,
          channel?.deprecation,
          d.selected.deprecation,
          d.name,
          d.selected.channel,
          d.selected.csvName,
        ),
        requiredPackages: bundle?.requiredPackages ?? [],
        requiredApis: (bundle?.requiredApis ?? []).map(formatApi),
        openshiftOptions: d.selected.csv?.openshiftOptions,
      },
      catalog: { displayName: lookup.catalog.displayName },
    };
  }
  const d = detailsFromManifest(lookup.manifest, sel);
  // A PackageManifest describes only the head; an older version is installed on the head's facts.
  const head = d.selected.csv ?? detailsFromManifest(lookup.manifest, { channel: d.selected.channel }).selected.csv;
  const channel = d.channels.find((c) => c.name === d.selected.channel);
  return {
    facts: {
      csvName: d.selected.csvName,
      version: d.selected.version,
      isHead: d.selected.isHead,
      headCsvName: channel?.head,
      installModes: head?.installModes ?? [],
      providedApis: (head?.providedApis ?? []).map(formatApi),
      suggestedNamespaceTemplate: head?.suggestedNamespaceTemplate,
      nonStandalone: head?.nonStandalone ?? false,
      deprecations: deprecationsOf(
        d.deprecation,
        channel?.deprecation,
        d.selected.deprecation,
        d.name,
        d.selected.channel,
        d.selected.csvName,
      ),
      openshiftOptions: head?.openshiftOptions,
    },
    catalog: { displayName: d.catalog.displayName, publisher: lookup.manifest.status.catalogSourcePublisher },
  };
}

function deprecationsOf(
  pkg: string | undefined,
  channel: string | undefined,
  bundle: string | undefined,
  name: string,
  ch: string,
  csv: string,
): string[] {
  return [
    ...(pkg ? [`package ${name} is deprecated: ${pkg}`] : []),
    ...(channel ? [`channel ${ch} is deprecated: ${channel}`] : []),
    ...(bundle ? [`${csv} is deprecated: ${bundle}`] : []),
  ];
}

async function deniedReason(
  client: KubeClient,
  verb: string,
  group: string,
  resource: string,
  namespace?: string,
): Promise<string | undefined> {
  const r = await accessReview(client, verb, group, resource, namespace);
  return r.allowed ? undefined : r.reason;
}

/** Everything the planner needs, read as the person. */
export async function gatherInstallFacts(
  client: KubeClient,
  lookup: PackageLookup,
  body: InstallBody,
): Promise<InstallFacts> {
  const openshift = openShiftChoices(body);
  const [
    { facts: version, catalog },
    exists,
    groups,
    subs,
    allSubs,
    clusterGroups,
    denyNs,
    denyOg,
    denySub,
    openshiftCluster,
    denyMonitoring,
  ] = await Promise.all([
    step(
      body.version
        ? `reading version ${body.version} of package ${body.package}`
        : `reading the head of channel ${body.channel} of package ${body.package}`,
      () => versionFacts(client, lookup, body),
    ),
    step(`reading Namespace ${body.namespace}`, () => namespaceExists(client, body.namespace)),
    step(`listing the OperatorGroups in namespace ${body.namespace}`, () =>
      listOrEmpty<OperatorGroup>(client, OPERATOR_GROUP_TYPE, body.namespace),
    ),
    step(`listing the Subscriptions in namespace ${body.namespace}`, () =>
      listOrEmpty<Subscription>(client, SUBSCRIPTION_TYPE, body.namespace),
    ),
    step('listing the Subscriptions in every namespace', () => listOrEmpty<Subscription>(client, SUBSCRIPTION_TYPE)),
    step('listing the OperatorGroups in every namespace', () =>
      listOrEmpty<OperatorGroup>(client, OPERATOR_GROUP_TYPE),
    ),
    step('checking whether you may create namespaces', () => deniedReason(client, 'create', '', 'namespaces')),
    step(`checking whether you may create OperatorGroups in namespace ${body.namespace}`, () =>
      deniedReason(client, 'create', OPERATOR_GROUP_TYPE.group, OPERATOR_GROUP_TYPE.plural, body.namespace),
    ),
    step(`checking whether you may create Subscriptions in namespace ${body.namespace}`, () =>
      deniedReason(client, 'create', SUBSCRIPTION_TYPE.group, SUBSCRIPTION_TYPE.plural, body.namespace),
    ),
    step('reading the OpenShift cluster objects the install options depend on', () => gatherOpenShiftFacts(client)),
    body.clusterMonitoring
      ? step(`checking whether you may create Roles and RoleBindings in namespace ${body.namespace}`, () =>
          monitoringDenied(client, body.namespace),
        )
      : undefined,
  ]);
  if (groups === undefined || subs === undefined) {
    throw new ApiError(
      403,
      'Forbidden',
      `you may not list the OperatorGroups and Subscriptions of namespace ${body.namespace}, which an install there needs`,
    );
  }
  let publisher = catalog.publisher;
  if (lookup.source === 'registry') {
    try {
      publisher = (await client.get<CatalogSource>(CATALOG_SOURCE_TYPE, body.catalog.name, body.catalog.namespace)).spec
        .publisher;
    } catch (err) {
      if (!isKubeError(err)) throw err;
    }
  }
  const request: InstallRequest = {
    catalog: body.catalog,
    package: body.package,
    channel: body.channel,
    csvName: version.csvName,
    namespace: body.namespace,
    installMode: body.installMode,
    targetNamespaces: body.targetNamespaces,
    approval: body.approval,
    ...(body.config && Object.keys(body.config).length ? { config: body.config } : {}),
    ...(body.serviceAccount ? { serviceAccount: body.serviceAccount } : {}),
    ...(openshift ? { openshift } : {}),
  };
  assertValidConfig(request.config);
  const scoped = body.serviceAccount?.name ?? groups.find((g) => g.spec?.serviceAccountName)?.spec?.serviceAccountName;
  const account = scoped
    ? await step(`reading what installing with service account ${scoped} needs`, () =>
        scopedFacts(client, lookup, body, version.csvName),
      )
    : ({ denied: {} } as ScopedFacts);
  return {
    request,
    version,
    catalog: { ...catalog, publisher },
    namespaceExists: exists,
    operatorGroups: groups,
    subscriptions: subs,
    elsewhere: allSubs
      ?.filter((s) => s.spec.name === body.package && s.spec.source === body.catalog.name)
      .map((s) => ({ namespace: s.metadata?.namespace ?? '', name: s.metadata?.name ?? '' })),
    clusterGroups,
    denied: {
      createNamespace: denyNs,
      createOperatorGroup: denyOg,
      createSubscription: denySub,
      ...account.denied,
      ...(denyMonitoring ? { monitoringRbac: denyMonitoring } : {}),
    },
    ...(openshiftCluster ? { openshiftCluster } : {}),
    ...(account.serviceAccounts ? { serviceAccounts: account.serviceAccounts } : {}),
    ...(account.bundle ? { bundle: account.bundle } : {}),
    ...(account.dependencyBundles ? { dependencyBundles: account.dependencyBundles } : {}),
  };
}

async function monitoringDenied(client: KubeClient, ns: string): Promise<string | undefined> {
  const [role, binding] = await Promise.all(
    ['roles', 'rolebindings'].map((r) => deniedReason(client, 'create', 'rbac.authorization.k8s.io', r, ns)),
  );
  return role ?? binding;
}

type ScopedFacts = Pick<InstallFacts, 'serviceAccounts' | 'bundle' | 'dependencyBundles'> & {
  denied: InstallFacts['denied'];
};

/** What an install with a service account needs to know: the bundle's rules, the accounts, the person's rights. */
async function scopedFacts(
  client: KubeClient,
  lookup: PackageLookup,
  body: InstallBody,
  csvName: string,
): Promise<ScopedFacts> {
  const ns = body.namespace;
  const [accounts, bundle, dependencyBundles, denySa, ...denyRbac] = await Promise.all([
    listOrEmpty<{ metadata?: { name?: string } }>(client, SERVICE_ACCOUNT_TYPE, ns),
    bundleContent(client, lookup, body.channel, csvName),
    dependencyContents(client, lookup, ns, csvName),
    deniedReason(client, 'create', '', 'serviceaccounts', ns),
    ...(['roles', 'rolebindings'] as const).map((r) =>
      deniedReason(client, 'create', 'rbac.authorization.k8s.io', r, ns),
    ),
    ...(['clusterroles', 'clusterrolebindings'] as const).map((r) =>
      deniedReason(client, 'create', 'rbac.authorization.k8s.io', r),
    ),
  ]);
  const clusterWide = 'csv' in bundle && (bundle.csv.spec.install?.spec?.clusterPermissions ?? []).length > 0;
  const grantRbac = denyRbac.slice(0, clusterWide ? 4 : 2).find((d) => d !== undefined);
  return {
    serviceAccounts: accounts?.map((a) => a.metadata?.name ?? ''),
    bundle,
    ...(dependencyBundles ? { dependencyBundles } : {}),
    denied: { ...(denySa ? { createServiceAccount: denySa } : {}), ...(grantRbac ? { grantRbac } : {}) },
  };
}

/**
 * The bundles OLM would install with this one to meet its dependencies, resolved as OLM's
 * resolver does from the same catalog (which it tries first), given what the namespace has.
 */
async function dependencyContents(
  client: KubeClient,
  lookup: PackageLookup,
  ns: string,
  csvName: string,
): Promise<InstallFacts['dependencyBundles']> {
  if (lookup.source !== 'registry') return undefined;
  const bundle = lookup.pkg.bundles.get(csvName);
  if (!bundle || (!bundle.requiredApis.length && !bundle.requiredPackages.length)) return undefined;
  const packages = catalogIndexOf(client).packagesOf(lookup.catalog.namespace, lookup.catalog.name);
  if (!packages) return { names: [], contents: [], unresolved: 'the catalog has not been read whole' };
  const [csvs, subs] = await Promise.all([
    listOrEmpty<ClusterServiceVersion>(client, CSV_TYPE, ns),
    listOrEmpty<Subscription>(client, SUBSCRIPTION_TYPE, ns),
  ]);
  const provided = (csvs ?? []).flatMap((c) =>
    ownedCrds(c).map((d) => ({ group: d.group, version: d.version, kind: d.kind })),
  );
  const installs = dependencyInstalls(
    bundle,
    [{ tag: lookup.address, packages }],
    provided,
    new Set((subs ?? []).map((s) => s.spec.name)),
  );
  const met = installs.flatMap((d) => [...d.bundle.providedApis.map(formatApi), d.pkg.name]);
  const unmet = [...bundle.requiredPackages.map((p) => p.packageName), ...bundle.requiredApis.map(formatApi)].filter(
    (d) =>
      !met.includes(d) && !(subs ?? []).some((s) => s.spec.name === d) && !provided.some((g) => formatApi(g) === d),
  );
  const contents = await Promise.all(
    installs.map((d) => bundleContent(client, lookup, d.channel, d.bundle.name, d.pkg.name, d.bundle)),
  );
  return {
    names: installs.map((d) => d.bundle.name),
    contents,
    ...(unmet.length ? { unresolved: `${unmet.join(', ')} would come from another catalog` } : {}),
  };
}

/**
 * The bundle's CSV and manifests from the catalog's registry, else from its image (a bundle given by
 * image only, whose registry answer is a CSV without the bundle's rules), or why they are not known.
 * Rights computed from a made-up CSV would grant the operator nothing, and OLM retries its Forbidden
 * steps for ever.
 */
async function bundleContent(
  client: KubeClient,
  lookup: PackageLookup,
  channel: string,
  csvName: string,
  pkg = lookup.source === 'registry' ? lookup.pkg.name : '',
  model = lookup.source === 'registry' ? lookup.pkg.bundles.get(csvName) : undefined,
): Promise<BundleContent> {
  if (lookup.source !== 'registry')
    return { unknown: 'the catalog is read through packageserver, whose PackageManifests carry no permissions' };
  const objects = await catalogIndexOf(client).bundleObjects(lookup.address, pkg, channel, csvName);
  if (typeof objects !== 'string') {
    const csv = objects.find((o) => o.kind === 'ClusterServiceVersion') as ClusterServiceVersion | undefined;
    if (!csv) return { unknown: `the bundle of ${csvName} has no ClusterServiceVersion manifest` };
    return { csv, objects };
  }
  if (!model) return { unknown: `the bundle of ${csvName} is not readable (${objects})` };
  const read = await bundleManifests({ name: csvName, image: model.image, properties: model.properties }, undefined, {
    client,
    catalog: { kind: 'CatalogSource', namespace: lookup.catalog.namespace, name: lookup.catalog.name },
  });
  if ('unknown' in read) return { unknown: `the bundle of ${csvName} is not readable (${objects}; ${read.unknown})` };
  return { csv: read.csv as unknown as ClusterServiceVersion, objects: [read.csv, ...read.others] };
}
