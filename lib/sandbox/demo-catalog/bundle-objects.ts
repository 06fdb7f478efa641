// The objects inside a demo bundle: its ClusterServiceVersion (with the package's description in
// Markdown, which the olm.package blob carries too) and the CRDs it owns.
import { ALL_MODES, bundleName, type Bundle, type Crd, type Pkg } from './model';

export function describeMd(p: Pkg, extra: string): string {
  return `## ${p.displayName}

${p.summary}

### What it manages
${p.owned.map((c) => `- **${c.kind}**: ${c.description}`).join('\n')}

### Getting started
Create a resource once the operator is running:

\`\`\`yaml
apiVersion: ${p.owned[0]!.group}/v1
kind: ${p.owned[0]!.kind}
metadata:
  name: example
spec: {}
\`\`\`

${extra}

Documentation: [${p.name}.example.com/docs](https://${p.name}.example.com/docs)
`;
}

export function csvFor(p: Pkg, b: Bundle): Record<string, unknown> {
  const modes = b.modes ?? p.modes;
  const name = bundleName(p.name, b.version);
  const sa = `${p.name}-controller`;
  const image = `quay.example.com/demo/${p.name}@sha256:${Buffer.from(`${p.name}-${b.version}`).toString('hex').padEnd(64, '0').slice(0, 64)}`;
  const example = p.owned.map((c) => ({
    apiVersion: `${c.group}/v1`,
    kind: c.kind,
    metadata: { name: `example-${c.kind.toLowerCase()}` },
    spec: {},
  }));
  return {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'ClusterServiceVersion',
    metadata: {
      name,
      annotations: {
        capabilities: p.capabilities,
        categories: p.categories,
        containerImage: image,
        createdAt: '2026-10-01T09:00:00Z',
        description: p.summary,
        repository: `https://github.com/example/${p.name}`,
        support: p.provider,
        'alm-examples': JSON.stringify(example),
        ...p.annotations,
        ...b.annotations,
      },
      // A package's own arch/os labels replace the default amd64/linux set (metricsmith is arm64-only).
      labels: {
        ...(p.labels ?? {
          'operatorframework.io/arch.amd64': 'supported',
          'operatorframework.io/os.linux': 'supported',
        }),
        ...b.labels,
      },
    },
    spec: {
      displayName: p.displayName,
      version: b.version,
      maturity: b.version.startsWith('0.') || b.version.includes('-') ? 'alpha' : 'stable',
      description: describeMd(p, p.description),
      keywords: p.keywords,
      provider: { name: p.provider, url: `https://${p.provider.toLowerCase().replace(/[^a-z]+/g, '')}.example.com` },
      maintainers: [{ name: `${p.displayName} maintainers`, email: `${p.name}@example.com` }],
      links: [
        { name: 'Documentation', url: `https://${p.name}.example.com/docs` },
        { name: 'Source', url: `https://github.com/example/${p.name}` },
      ],
      icon: [{ base64data: p.icon, mediatype: 'image/svg+xml' }],
      minKubeVersion: p.minKubeVersion ?? '1.24.0',
      installModes: ALL_MODES.map((type) => ({ type, supported: modes.includes(type) })),
      customresourcedefinitions: {
        owned: p.owned.map((c) => ({
          name: `${c.plural}.${c.group}`,
          version: 'v1',
          kind: c.kind,
          displayName: c.kind,
          description: c.description,
          ...(c.specDescriptors ? { specDescriptors: c.specDescriptors } : {}),
          ...(c.statusDescriptors ? { statusDescriptors: c.statusDescriptors } : {}),
        })),
        ...(p.required
          ? {
              required: p.required.map((c) => ({
                name: `${c.plural}.${c.group}`,
                version: 'v1',
                kind: c.kind,
                displayName: c.kind,
                description: c.description,
              })),
            }
          : {}),
      },
      install: {
        strategy: 'deployment',
        spec: {
          permissions: [
            {
              serviceAccountName: sa,
              rules: [
                {
                  apiGroups: [''],
                  resources: ['configmaps', 'secrets', 'services'],
                  verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
                },
                ...p.owned.map((c) => ({
                  apiGroups: [c.group],
                  resources: [c.plural, `${c.plural}/status`],
                  verbs: ['*'],
                })),
              ],
            },
          ],
          clusterPermissions: [
            {
              serviceAccountName: sa,
              rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] }],
            },
          ],
          deployments: [
            {
              name: `${p.name}-controller-manager`,
              spec: {
                replicas: 1,
                selector: { matchLabels: { 'app.kubernetes.io/name': p.name } },
                template: {
                  metadata: { labels: { 'app.kubernetes.io/name': p.name } },
                  spec: {
                    serviceAccountName: sa,
                    containers: [
                      {
                        name: 'manager',
                        image,
                        args: ['--leader-elect'],
                        resources: { requests: { cpu: '50m', memory: '64Mi' } },
                      },
                    ],
                  },
                },
              },
            },
          ],
        },
      },
      relatedImages: [{ name: 'manager', image }],
    },
  };
}

export function crdFor(c: Crd): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${c.plural}.${c.group}` },
    spec: {
      group: c.group,
      names: { plural: c.plural, singular: c.kind.toLowerCase(), kind: c.kind, listKind: `${c.kind}List` },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: c.description,
              'x-kubernetes-preserve-unknown-fields': true,
            },
          },
        },
      ],
    },
  };
}
