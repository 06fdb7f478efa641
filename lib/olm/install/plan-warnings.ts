// Warnings of an install plan that change nothing it writes: the package installed elsewhere,
// APIs another overlapping OperatorGroup provides already (OLM fails the CSV with
// InterOperatorGroupOwnerConflict), a community catalog, dependencies OLM will install, the
// catalog's deprecations and non-standalone packages.
import { isCommunityCatalog } from '../resources/catalog-source';
import { Keys } from '../resources/common';
import { groupSurface, operatorGroupsIntersect, parseProvidedAPIs } from '../install-modes/provided-apis';
import type { InstallFacts, PlanDraft } from './plan-types';

function describeTargets(targets: readonly string[]): string {
  return targets[0] === '' ? 'all namespaces' : targets.join(', ');
}

export function planWarnings(f: InstallFacts, d: PlanDraft, targets: string[]): void {
  const { warnings } = d;
  const r = f.request;
  for (const e of f.elsewhere ?? []) {
    if (e.namespace === r.namespace) continue;
    warnings.push({
      code: 'alreadyInstalledElsewhere',
      message: `${r.package} is already installed in namespace ${e.namespace} (Subscription ${e.name}); two copies whose OperatorGroups overlap conflict over the APIs they own`,
    });
  }

  // Provided APIs already owned by another OperatorGroup that overlaps this one.
  if (f.clusterGroups && targets.length > 0 && f.version.providedApis.length > 0) {
    const mine = groupSurface(r.namespace, targets);
    for (const g of f.clusterGroups) {
      if (g.metadata?.namespace === r.namespace) continue;
      const theirs = groupSurface(g.metadata?.namespace ?? '', g.status?.namespaces ?? g.spec?.targetNamespaces ?? []);
      if (!operatorGroupsIntersect(mine, theirs)) continue;
      const owned = parseProvidedAPIs(g.metadata?.annotations?.[Keys.providedAPIs]);
      const clash = f.version.providedApis.filter((a) => owned.has(a));
      if (clash.length) {
        warnings.push({
          code: 'providedApiConflict',
          message: `OperatorGroup ${g.metadata?.name} in ${g.metadata?.namespace} overlaps ${describeTargets(targets)} and already provides ${clash.join(', ')}; OLM will fail this operator with InterOperatorGroupOwnerConflict`,
        });
      }
    }
  }

  if (
    isCommunityCatalog({
      name: f.request.catalog.name,
      displayName: f.catalog.displayName,
      publisher: f.catalog.publisher,
    })
  ) {
    warnings.push({
      code: 'communityCatalog',
      message: `${f.catalog.displayName || f.request.catalog.name} is a community catalog: its operators are not supported by the cluster's vendor`,
    });
  }
  const deps = [
    ...(f.version.requiredPackages ?? []).map((p) => `package ${p.packageName} ${p.versionRange}`),
    ...(f.version.requiredApis ?? []).map((a) => `an operator providing ${a}`),
  ];
  if (deps.length)
    warnings.push({
      code: 'dependencies',
      message: `${f.version.csvName} depends on ${deps.join(', ')}: OLM installs what is missing into ${r.namespace} from the cluster's catalogs, with its own Subscription`,
    });
  for (const d of f.version.deprecations) warnings.push({ code: 'deprecated', message: d });
  if (f.version.nonStandalone)
    warnings.push({
      code: 'nonStandalone',
      message: `${r.package} is marked non-standalone: it is meant to be installed as a dependency of another operator`,
    });
}
