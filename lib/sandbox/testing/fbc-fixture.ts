// Small FBC catalogs written for tests: operators with chosen versions, channels, install modes,
// dependencies and a real install strategy (a Deployment), as `olm.bundle.object` manifests.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface FixtureBundle {
  version: string;
  replaces?: string;
  skips?: string[];
  skipRange?: string;
  installModes?: Partial<Record<'OwnNamespace' | 'SingleNamespace' | 'MultiNamespace' | 'AllNamespaces', boolean>>;
  requiresPackage?: { packageName: string; versionRange: string };
  requiresGvk?: { group: string; version: string; kind: string };
  /** The channels listing this bundle (default: the package's channel). */
  channels?: string[];
  /** The CSV's own labels (OS and architecture support, for instance). */
  labels?: Record<string, string>;
  /** An init container's image in the operator's Deployment. */
  initImage?: string;
  /** The manager container's env and the pod's tolerations, as the bundle ships them. */
  env?: { name: string; value: string }[];
  tolerations?: Record<string, string>[];
  /** Cluster-wide rules for the operator's account: OLM makes a ClusterRole and binding of them. */
  clusterRules?: Record<string, unknown>[];
  /** More CSV spec fields, as the bundle ships them (one its CRD refuses, to fail a plan). */
  csvSpec?: Record<string, unknown>;
}

export interface FixturePackage {
  name: string;
  /** CRD group owned by every bundle: `<plural>.<group>` with kind `<Name>` */
  group?: string;
  kind?: string;
  /** The owned CRD's scope (default Namespaced). */
  scope?: 'Namespaced' | 'Cluster';
  channel?: string;
  bundles: FixtureBundle[];
}

function b64(o: unknown): string {
  return Buffer.from(JSON.stringify(o)).toString('base64');
}

export function writeFixtureCatalog(dir: string, packages: FixturePackage[]): string {
  for (const p of packages) {
    const group = p.group ?? `${p.name}.example.com`;
    const kind = p.kind ?? `${p.name[0]!.toUpperCase()}${p.name.slice(1).replace(/-./g, (m) => m[1]!.toUpperCase())}`;
    const plural = `${kind.toLowerCase()}s`;
    const channel = p.channel ?? 'stable';
    const docs: unknown[] = [{ schema: 'olm.package', name: p.name, defaultChannel: channel }];
    const channels = [...new Set([channel, ...p.bundles.flatMap((b) => b.channels ?? [])])];
    for (const c of channels) {
      docs.push({
        schema: 'olm.channel',
        package: p.name,
        name: c,
        entries: p.bundles
          .filter((b) => (b.channels ?? [channel]).includes(c))
          .map((b) => ({
            name: `${p.name}.v${b.version}`,
            ...(b.replaces ? { replaces: `${p.name}.v${b.replaces}` } : {}),
            ...(b.skips ? { skips: b.skips.map((s) => `${p.name}.v${s}`) } : {}),
            ...(b.skipRange ? { skipRange: b.skipRange } : {}),
          })),
      });
    }
    for (const b of p.bundles) {
      const modes = {
        OwnNamespace: true,
        SingleNamespace: true,
        MultiNamespace: false,
        AllNamespaces: true,
        ...b.installModes,
      };
      const csv = {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'ClusterServiceVersion',
        metadata: {
          name: `${p.name}.v${b.version}`,
          annotations: { capabilities: 'Basic Install' },
          ...(b.labels ? { labels: b.labels } : {}),
        },
        spec: {
          displayName: p.name,
          version: b.version,
          provider: { name: 'Example' },
          installModes: Object.entries(modes).map(([type, supported]) => ({ type, supported })),
          customresourcedefinitions: {
            owned: [{ name: `${plural}.${group}`, version: 'v1', kind, displayName: kind }],
          },
          ...b.csvSpec,
          install: {
            strategy: 'deployment',
            spec: {
              permissions: [
                {
                  serviceAccountName: `${p.name}-operator`,
                  rules: [{ apiGroups: [group], resources: ['*'], verbs: ['*'] }],
                },
              ],
              ...(b.clusterRules
                ? { clusterPermissions: [{ serviceAccountName: `${p.name}-operator`, rules: b.clusterRules }] }
                : {}),
              deployments: [
                {
                  name: `${p.name}-operator`,
                  spec: {
                    replicas: 1,
                    selector: { matchLabels: { app: p.name } },
                    template: {
                      metadata: { labels: { app: p.name } },
                      spec: {
                        serviceAccountName: `${p.name}-operator`,
                        containers: [
                          {
                            name: 'manager',
                            image: `quay.example.com/${p.name}:${b.version}`,
                            ...(b.env ? { env: b.env } : {}),
                          },
                        ],
                        ...(b.initImage ? { initContainers: [{ name: 'init', image: b.initImage }] } : {}),
                        ...(b.tolerations ? { tolerations: b.tolerations } : {}),
                      },
                    },
                  },
                },
              ],
            },
          },
        },
      };
      const crd = {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: `${plural}.${group}` },
        spec: {
          group,
          names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
          scope: p.scope ?? 'Namespaced',
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            },
          ],
        },
      };
      docs.push({
        schema: 'olm.bundle',
        package: p.name,
        name: `${p.name}.v${b.version}`,
        image: `quay.example.com/${p.name}-bundle:${b.version}`,
        properties: [
          { type: 'olm.package', value: { packageName: p.name, version: b.version } },
          { type: 'olm.gvk', value: { group, version: 'v1', kind } },
          ...(b.requiresPackage ? [{ type: 'olm.package.required', value: b.requiresPackage }] : []),
          ...(b.requiresGvk ? [{ type: 'olm.gvk.required', value: b.requiresGvk }] : []),
          { type: 'olm.bundle.object', value: { data: b64(csv) } },
          { type: 'olm.bundle.object', value: { data: b64(crd) } },
        ],
      });
    }
    mkdirSync(join(dir, p.name), { recursive: true });
    writeFileSync(join(dir, p.name, 'catalog.json'), docs.map((d) => JSON.stringify(d)).join('\n'));
  }
  return dir;
}
