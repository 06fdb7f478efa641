// The Deployments of a CSV's install strategy: what OLM would write for each (lib/olm's rule
// with the Subscription's config and the cluster proxy), written with the group's account when
// it names one, the spec hash that tells OLM a Deployment changed, and when each is available.
// There is no kubelet: a written Deployment reports available after a delay.
import { createHash } from 'node:crypto';
import {
  operatorDeployment,
  type ClusterProxy,
  type DeploymentSpec,
  type SubscriptionConfig,
} from '../../olm/resources/subscription-config';
import type { ApiServer } from '../server/api-server';
import type { KObject } from '../store/types';
import type { CsvStatusWriter } from './csv-status';
import { OLM, OperatorBase, now } from './operator-base';
import { checkAccess, serviceAccountUser, type ServiceAccountRef } from './scoped';
import { subscriptionView } from './olm-views';
import { rolledOutStatus } from './deployment-status';

/** The label in which OLM keeps the hash of the Deployment spec it wrote (install/deployment.go). */
const SPEC_HASH_LABEL = 'olm.deployment-spec-hash';

export type StrategyDeployment = { name: string; spec: Record<string, unknown>; label?: Record<string, string> };

export interface OperatorOptions {
  /** How long created Deployments take to report available (there is no kubelet). */
  deploymentDelayMs: number;
}

/**
 * The spec as OLM sends it, encoded from Go's types: an env var's empty value is omitted
 * (omitempty) and a container's resources, a struct, are always there, `{}` when empty.
 */
function goEncoded(spec: DeploymentSpec): DeploymentSpec {
  const pod = spec.template?.spec;
  if (!pod) return spec;
  const container = (c: NonNullable<typeof pod.containers>[number]) => ({
    ...c,
    ...(c.env
      ? {
          env: c.env.map((e) =>
            e.value === '' ? { name: e.name, ...(e.valueFrom ? { valueFrom: e.valueFrom } : {}) } : e,
          ),
        }
      : {}),
    resources: c.resources ?? {},
  });
  return {
    ...spec,
    template: {
      ...spec.template,
      spec: {
        ...pod,
        containers: (pod.containers ?? []).map(container),
        ...(pod.initContainers ? { initContainers: pod.initContainers.map(container) } : {}),
      },
    },
  };
}

export class CsvDeployments extends OperatorBase {
  constructor(
    api: ApiServer,
    private readonly status: CsvStatusWriter,
    private readonly opts: OperatorOptions,
  ) {
    super(api);
  }

  private get deployments() {
    return this.res('apps', 'v1', 'deployments');
  }

  /**
   * The config of the Subscription whose installed CSV this is (overrides/config.go findOwner),
   * and on OpenShift the cluster proxy's status.
   */
  private deploymentInputs(csv: KObject): { config?: SubscriptionConfig; proxy?: ClusterProxy } {
    const owner = this.api
      .storeList(this.subs, csv.metadata.namespace)
      .find((s) => subscriptionView(s).status?.installedCSV === csv.metadata.name);
    const proxyRes = this.api.resources.find('config.openshift.io', 'v1', 'proxies');
    const p = proxyRes
      ? ((this.exists(proxyRes, undefined, 'cluster')?.status ?? {}) as {
          httpProxy?: string;
          httpsProxy?: string;
          noProxy?: string;
        })
      : undefined;
    return {
      config: (owner?.spec as { config?: SubscriptionConfig } | undefined)?.config,
      ...(p ? { proxy: { HTTP_PROXY: p.httpProxy, HTTPS_PROXY: p.httpsProxy, NO_PROXY: p.noProxy } } : {}),
    };
  }

  /** What OLM would write for one deployment of the strategy now (lib/olm's rule), and its hash. */
  private desiredDeployment(
    csv: KObject,
    d: StrategyDeployment,
  ): { spec: DeploymentSpec; annotations: Record<string, string>; hash: string } {
    const { config, proxy } = this.deploymentInputs(csv);
    const olm = operatorDeployment(
      d.spec as DeploymentSpec,
      { name: csv.metadata.name ?? '', annotations: csv.metadata.annotations },
      config,
      proxy,
    );
    const out = { spec: goEncoded(olm.spec), annotations: olm.annotations };
    const hash = BigInt(
      `0x${createHash('sha256')
        .update(JSON.stringify([d.name, out.spec]))
        .digest('hex')
        .slice(0, 12)}`,
    ).toString(36);
    return { ...out, hash };
  }

  /** OLM's CheckInstalled spec-hash step: a changed Deployment sends the CSV back to InstallReady. */
  reinstallIfChanged(csv: KObject, deployments: StrategyDeployment[], reason: string): boolean {
    const ns = csv.metadata.namespace ?? '';
    for (const d of deployments) {
      const there = this.exists(this.deployments, ns, d.name);
      const old = there?.metadata.labels?.[SPEC_HASH_LABEL];
      const { hash } = this.desiredDeployment(csv, d);
      if (!there || old === hash) continue;
      this.status.setPhase(
        csv,
        'InstallReady',
        reason,
        old
          ? `installing: deployment changed old hash=${old}, new hash=${hash}`
          : `installing: deployment ${d.name} doesn't have a spec hash, update it`,
      );
      return true;
    }
    return false;
  }

  ensureDeployment(csv: KObject, d: StrategyDeployment, account?: ServiceAccountRef): void {
    const ns = csv.metadata.namespace ?? '';
    if (account) {
      // CreateOrRollingUpdateDeployment with the account's token: a get, then a create or a patch.
      const user = serviceAccountUser(account.namespace, account.name);
      checkAccess(this.api.rbac, user, {
        verb: 'get',
        group: 'apps',
        resource: 'deployments',
        namespace: ns,
        name: d.name,
      });
      const there = !!this.exists(this.deployments, ns, d.name);
      checkAccess(this.api.rbac, user, {
        verb: there ? 'patch' : 'create',
        group: 'apps',
        resource: 'deployments',
        namespace: ns,
        ...(there ? { name: d.name } : {}),
      });
    }
    const desired = this.desiredDeployment(csv, d);
    const metadata = {
      name: d.name,
      namespace: ns,
      labels: {
        ...d.label,
        'olm.owner': csv.metadata.name ?? '',
        'olm.owner.kind': 'ClusterServiceVersion',
        'olm.owner.namespace': ns,
        'olm.managed': 'true',
        [SPEC_HASH_LABEL]: desired.hash,
      },
      ...(Object.keys(desired.annotations).length ? { annotations: desired.annotations } : {}),
      ownerReferences: [
        {
          apiVersion: `${OLM}/v1alpha1`,
          kind: 'ClusterServiceVersion',
          name: csv.metadata.name ?? '',
          uid: csv.metadata.uid ?? '',
          controller: false,
          blockOwnerDeletion: false,
        },
      ],
    };
    const existing = this.exists(this.deployments, ns, d.name);
    if (existing) {
      // An upgrade takes over the previous version's deployment: new spec, new owner, and it
      // rolls out again (not available until the new pods would be).
      this.api.updateObject(this.deployments, {
        ...existing,
        metadata: { ...existing.metadata, ...metadata, resourceVersion: existing.metadata.resourceVersion },
        spec: desired.spec,
      } as KObject);
      const cur = this.exists(this.deployments, ns, d.name)!;
      this.api.updateObject(this.deployments, { ...cur, status: {} } as KObject, 'status');
    } else {
      this.api.createObject(this.deployments, {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata,
        spec: desired.spec,
      });
    }
    // There is no kubelet: the deployment reports available after a delay.
    const t = setTimeout(() => {
      const cur = this.exists(this.deployments, ns, d.name);
      if (!cur) return;
      this.api.updateObject(this.deployments, { ...cur, status: rolledOutStatus(cur, now()) }, 'status');
    }, this.opts.deploymentDelayMs);
    t.unref();
  }

  deploymentAvailable(ns: string, name: string): boolean {
    const d = this.exists(this.deployments, ns, name);
    const st = (d?.status ?? {}) as { availableReplicas?: number };
    const replicas = (d?.spec as { replicas?: number } | undefined)?.replicas ?? 1;
    return !!d && (st.availableReplicas ?? 0) >= replicas;
  }
}
