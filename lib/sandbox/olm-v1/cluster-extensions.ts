// operator-controller v1.2.0's ClusterExtension controller in the sandbox
// (internal/operator-controller/controllers/clusterextension_controller.go): finalizers in a pass
// of their own; the installed bundle from the release records, which needs the ServiceAccount;
// resolution by lib/olm/v1; deprecation conditions; the bundle's objects (the same bundle → objects
// code OLM v0 uses, rendered by lib/olm/v1's registry+v1 rules); Helm-like apply as the account;
// Installed/Progressing with its reasons and messages and status.install.bundle. Uninstall is the
// API server's garbage collection of what the extension owns. docs/olm-v1/install.md.
import { selectCatalogs, type LabelSelector } from '../../olm/v1/catalog-selection';
import { deprecationConditions } from '../../olm/v1/deprecation';
import { renderBundle } from '../../olm/v1/render-bundle';
import { resolveBundle, type CatalogPackage, type UpgradeConstraintPolicy } from '../../olm/v1/resolve';
import { bundleManifests } from '../olm/install-steps';
import { serviceAccountUser } from '../olm/scoped';
import type { ApiServer } from '../server/api-server';
import type { ServedResource } from '../server/resources';
import type { KObject } from '../store/types';
import { Applier, decorate } from './applier';
import { packageContent } from './catalog-packages';
import type { ClusterCatalogs } from './cluster-catalogs';
import { findCondition, setCondition, type Condition } from './conditions';
import { parseImageRef } from './image-ref';
import { deployedRelease, releases, supersede, writeRelease } from './releases';

export const EXTENSION_FINALIZERS = [
  'olm.operatorframework.io/cleanup-unpack-cache',
  'olm.operatorframework.io/cleanup-contentmanager-cache',
];

// conditionsets.ConditionTypes: what a failed resolution fills in when absent.
const ALL_TYPES = [
  'Installed',
  'Deprecated',
  'PackageDeprecated',
  'ChannelDeprecated',
  'BundleDeprecated',
  'Progressing',
  'Serving',
];

interface Spec {
  namespace: string;
  serviceAccount: { name: string };
  source: {
    catalog?: {
      packageName: string;
      version?: string;
      channels?: string[];
      selector?: LabelSelector;
      upgradeConstraintPolicy?: UpgradeConstraintPolicy;
    };
  };
}

interface Status {
  conditions?: Condition[];
  install?: { bundle: { name: string; version: string } };
}

class Outcome {
  constructor(
    readonly message: string,
    readonly terminal = false,
  ) {}
}

export class ClusterExtensions {
  private readonly applier: Applier;

  constructor(
    private readonly api: ApiServer,
    private readonly catalogs: ClusterCatalogs,
  ) {
    this.applier = new Applier(api);
  }

  private get resource(): ServedResource {
    return this.api.resources.find('olm.operatorframework.io', 'v1', 'clusterextensions')!;
  }

  names(): string[] {
    return this.api.storeList(this.resource).map((o) => o.metadata.name ?? '');
  }

  async reconcile(name: string): Promise<void> {
    const ext = this.api.storeGet(this.resource, undefined, name);
    if (!ext) return;
    const finalizers = ext.metadata.finalizers ?? [];
    if (ext.metadata.deletionTimestamp) {
      // Both finalizers clear caches of operator-controller's own; nothing in the cluster. What the
      // extension installed goes with it by garbage collection (its objects' ownerReferences).
      if (finalizers.some((f) => EXTENSION_FINALIZERS.includes(f)))
        this.writeMeta(
          ext,
          finalizers.filter((f) => !EXTENSION_FINALIZERS.includes(f)),
        );
      return;
    }
    if (!EXTENSION_FINALIZERS.every((f) => finalizers.includes(f))) {
      this.writeMeta(ext, [...finalizers, ...EXTENSION_FINALIZERS.filter((f) => !finalizers.includes(f))]);
      return;
    }
    const status = structuredClone((ext.status ?? {}) as Status);
    this.sync(ext, status);
    if (JSON.stringify(status) !== JSON.stringify(ext.status ?? {}))
      this.api.updateObject(this.resource, { ...ext, status: status as Record<string, unknown> }, 'status');
  }

  private sync(ext: KObject, status: Status): void {
    const spec = ext.spec as unknown as Spec;
    const gen = ext.metadata.generation ?? 1;
    const cond = (type: string, s: Condition['status'], reason: string, message: string) => {
      status.conditions = setCondition(status.conditions ?? [], {
        type,
        status: s,
        reason,
        message,
        observedGeneration: gen,
      });
    };
    const progressing = (o?: Outcome) => {
      if (!o) cond('Progressing', 'True', 'Succeeded', 'desired state reached');
      else cond('Progressing', o.terminal ? 'False' : 'True', o.terminal ? 'Blocked' : 'Retrying', o.message);
    };
    const installedFrom = (rel?: { bundle: { name: string; version: string; image: string } }) => {
      if (!rel) {
        delete status.install;
        cond('Installed', 'False', 'Failed', 'No bundle installed');
        return;
      }
      status.install = { bundle: { name: rel.bundle.name, version: rel.bundle.version } };
      cond('Installed', 'True', 'Succeeded', `Installed bundle ${rel.bundle.image} successfully`);
    };

    // The release records are read with a client of the account's token: no account, no client.
    const sa = this.api.storeGet(
      this.api.resources.find('', 'v1', 'serviceaccounts')!,
      spec.namespace,
      spec.serviceAccount.name,
    );
    if (!sa) {
      delete status.install;
      cond(
        'Installed',
        'Unknown',
        'Failed',
        `service account "${spec.serviceAccount.name}" not found in namespace "${spec.namespace}": unable to authenticate with the Kubernetes cluster.`,
      );
      progressing(new Outcome('installation cannot proceed due to missing ServiceAccount'));
      return;
    }
    const user = serviceAccountUser(spec.namespace, spec.serviceAccount.name);
    const installed = deployedRelease(this.api, ext.metadata.name ?? '');
    const catalog = spec.source.catalog!;
    const walked = this.walk(catalog.packageName, catalog.selector);
    const resolved =
      'error' in walked
        ? walked
        : resolveBundle(
            {
              packageName: catalog.packageName,
              version: catalog.version,
              channels: catalog.channels,
              upgradeConstraintPolicy: catalog.upgradeConstraintPolicy,
              installed: installed && { name: installed.bundle.name, version: installed.bundle.version },
            },
            walked.map((w) => w.pkg),
          );
    if ('error' in resolved) {
      progressing(new Outcome(resolved.error));
      installedFrom(installed);
      for (const t of ALL_TYPES) if (!findCondition(status.conditions, t)) cond(t, 'False', 'Failed', resolved.error);
      return;
    }
    for (const d of deprecationConditions(resolved.bundle.name, catalog.channels ?? [], resolved.deprecation))
      cond(d.type, d.status, d.reason, d.message);
    const wrap = (m: string) => `${m} for resolved bundle "${resolved.bundle.name}" with version "${resolved.version}"`;

    const image = resolved.bundle.image ?? '';
    const parsed = parseImageRef(image);
    if ('error' in parsed) {
      progressing(new Outcome(wrap(`terminal error: error parsing image reference "${image}": ${parsed.error}`), true));
      installedFrom(installed);
      return;
    }
    const model = ('error' in walked ? [] : walked).find((w) => w.pkg.catalog === resolved.catalog)?.model;
    const bundleModel = model?.bundles.get(resolved.bundle.name);
    const manifests = model && bundleModel ? bundleManifests(model, bundleModel) : [];
    const csv = manifests.find((o) => o.kind === 'ClusterServiceVersion');
    if (!csv) {
      // Bundles a catalog gives only by image, without objects or CSV metadata: the sandbox has no image to pull.
      progressing(new Outcome(wrap(`error creating image source: the sandbox cannot pull bundle image ${image}`)));
      installedFrom(installed);
      return;
    }
    const rendered = renderBundle(csv as never, manifests.filter((o) => o !== csv) as never, spec.namespace);
    if ('error' in rendered) {
      progressing(new Outcome(wrap(rendered.error)));
      installedFrom(installed);
      return;
    }
    const objects = decorate(rendered.objects as unknown as KObject[], ext, spec.namespace);
    const unchanged =
      installed &&
      installed.bundle.name === resolved.bundle.name &&
      JSON.stringify(installed.manifest) === JSON.stringify(objects);
    const history = releases(this.api, ext.metadata.name ?? '');
    const bundle = { name: resolved.bundle.name, version: resolved.version, package: catalog.packageName, image };
    if (unchanged) this.applier.repair(user, objects);
    else {
      const revision = (history[0]?.revision ?? 0) + 1;
      const failed = this.applier.apply(user, ext, objects, history.length ? (installed?.manifest ?? []) : undefined);
      if (failed) {
        // A refused GET stops Helm before it records anything; a failed write leaves a failed release.
        if (!failed.startsWith('Unable to continue') && !failed.includes('cannot be managed by operator-controller'))
          writeRelease(this.api, ext, { revision, status: 'failed', bundle, manifest: objects });
        progressing(new Outcome(wrap(failed)));
        installedFrom(installed);
        return;
      }
      writeRelease(this.api, ext, { revision, status: 'deployed', bundle, manifest: objects });
      supersede(this.api, ext, revision);
    }
    installedFrom({ bundle });
    const watch = this.applier.watchErrors(user, objects);
    progressing(watch ? new Outcome(watch) : undefined);
  }

  /** The selected catalogs' content for the package, or the error that stops resolution. */
  private walk(packageName: string, selector?: LabelSelector) {
    const facts = this.api
      .storeList(this.api.resources.find('olm.operatorframework.io', 'v1', 'clustercatalogs')!)
      .map((c) => {
        const st = (c.status ?? {}) as { conditions?: Condition[]; resolvedSource?: { image?: { ref?: string } } };
        return {
          name: c.metadata.name ?? '',
          labels: c.metadata.labels ?? {},
          priority: Number((c.spec as { priority?: number }).priority ?? 0),
          availabilityMode: (c.spec as { availabilityMode?: string }).availabilityMode,
          serving: findCondition(st.conditions, 'Serving')?.status === 'True',
          resolvedRef: st.resolvedSource?.image?.ref,
        };
      });
    const selected = selectCatalogs(facts, selector);
    if ('error' in selected) return selected;
    return selected.map((s) => {
      if ('error' in s) return { pkg: { catalog: s.name, priority: 0, fbc: { error: s.error } } as CatalogPackage };
      const served = this.catalogs.served(s.name);
      if (!served || served.ref !== s.ref)
        return {
          pkg: {
            catalog: s.name,
            priority: s.priority,
            fbc: { error: `cache for catalog "${s.name}" not found` },
          } as CatalogPackage,
        };
      const content = packageContent(s.name, s.ref, served.jsonl, packageName);
      return {
        pkg: { catalog: s.name, priority: s.priority, fbc: content.config } as CatalogPackage,
        model: content.model,
      };
    });
  }

  private writeMeta(ext: KObject, finalizers: string[]): void {
    this.api.updateObject(this.resource, { ...ext, metadata: { ...ext.metadata, finalizers } });
  }
}
