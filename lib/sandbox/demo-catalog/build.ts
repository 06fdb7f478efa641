// Writes the project's demo catalog (FBC) into lib/sandbox/demo-catalog/catalog/. The YAML files
// there are the product; this script is how they are made, and running it again reproduces them
// byte for byte: `node --import tsx lib/sandbox/demo-catalog/build.ts`.
// Every operator here is fictional; names, descriptions, icons and images were written for
// olm-console to exercise what the console shows (see README.md beside this file).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';

type Mode = 'OwnNamespace' | 'SingleNamespace' | 'MultiNamespace' | 'AllNamespaces';

interface Descriptor {
  path: string;
  displayName: string;
  description?: string;
  'x-descriptors'?: string[];
}

interface Crd {
  kind: string;
  plural: string;
  group: string;
  description: string;
  /** How consoles label and show fields of the spec and status (the CSV's descriptors). */
  specDescriptors?: Descriptor[];
  statusDescriptors?: Descriptor[];
}

interface Bundle {
  version: string;
  /** `olm.maxOpenShiftVersion`: the newest OpenShift minor it runs on. */
  maxOpenShiftVersion?: string;
  replaces?: string;
  skips?: string[];
  skipRange?: string;
  modes?: Mode[];
  requiresGvk?: { group: string; version: string; kind: string }[];
  requiresPackage?: { packageName: string; versionRange: string }[];
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  /** Channels this version is in (default: the package's first channel). */
  channels?: string[];
  deprecated?: string;
}

interface Pkg {
  name: string;
  displayName: string;
  provider: string;
  summary: string;
  description: string;
  icon: string;
  categories: string;
  capabilities: 'Basic Install' | 'Seamless Upgrades' | 'Full Lifecycle' | 'Deep Insights' | 'Auto Pilot';
  keywords: string[];
  defaultChannel: string;
  channels: string[];
  owned: Crd[];
  required?: Crd[];
  modes: Mode[];
  bundles: Bundle[];
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  deprecation?: { package?: string; channels?: Record<string, string> };
  minKubeVersion?: string;
}

import { DEMO_CATALOG_DIR } from './location';
const ALL_MODES: Mode[] = ['OwnNamespace', 'SingleNamespace', 'MultiNamespace', 'AllNamespaces'];

function svg(body: string, bg: string): string {
  const text = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="${bg}"/>${body}</svg>`;
  return Buffer.from(text).toString('base64');
}

const icons = {
  elephant: svg(
    '<circle cx="32" cy="30" r="16" fill="#fff"/><rect x="26" y="38" width="6" height="14" rx="3" fill="#fff"/><circle cx="27" cy="27" r="2.5" fill="#1d4e89"/>',
    '#1d4e89',
  ),
  bolt: svg('<path d="M36 8 18 36h12l-4 20 20-30H34z" fill="#fff"/>', '#c2185b'),
  envelope: svg(
    '<rect x="12" y="18" width="40" height="28" rx="3" fill="#fff"/><path d="m12 20 20 14 20-14" fill="none" stroke="#5e35b1" stroke-width="3"/>',
    '#5e35b1',
  ),
  shield: svg(
    '<path d="M32 10 50 17v13c0 12-8 20-18 24-10-4-18-12-18-24V17z" fill="#fff"/><path d="m24 32 6 6 11-12" fill="none" stroke="#2e7d32" stroke-width="4"/>',
    '#2e7d32',
  ),
  keyhole: svg('<circle cx="32" cy="26" r="9" fill="#fff"/><path d="M28 30h8l3 20H25z" fill="#fff"/>', '#37474f'),
  archive: svg(
    '<rect x="12" y="14" width="40" height="10" rx="2" fill="#fff"/><rect x="15" y="26" width="34" height="24" rx="2" fill="#fff"/><rect x="26" y="31" width="12" height="4" rx="2" fill="#ef6c00"/>',
    '#ef6c00',
  ),
  gauge: svg(
    '<path d="M12 42a20 20 0 0 1 40 0" fill="none" stroke="#fff" stroke-width="6"/><path d="m32 42 10-14" stroke="#fff" stroke-width="4" stroke-linecap="round"/>',
    '#00838f',
  ),
  chip: svg(
    '<rect x="18" y="18" width="28" height="28" rx="4" fill="#fff"/><rect x="25" y="25" width="14" height="14" fill="#558b2f"/><path d="M24 12v6m8-6v6m8-6v6M24 46v6m8-6v6m8-6v6M12 24h6m-6 8h6m-6 8h6M46 24h6m-6 8h6m-6 8h6" stroke="#fff" stroke-width="3"/>',
    '#558b2f',
  ),
  flag: svg(
    '<path d="M18 10v46" stroke="#fff" stroke-width="4"/><path d="M20 12h26l-6 9 6 9H20z" fill="#fff"/>',
    '#f9a825',
  ),
  gateway: svg('<path d="M10 50V26L32 12l22 14v24H42V34H22v16z" fill="#fff"/>', '#283593'),
  route: svg(
    '<circle cx="16" cy="46" r="6" fill="#fff"/><circle cx="48" cy="18" r="6" fill="#fff"/><path d="M16 40c0-14 32-8 32-22" fill="none" stroke="#fff" stroke-width="4"/>',
    '#6d4c41',
  ),
  scroll: svg(
    '<rect x="16" y="12" width="32" height="40" rx="3" fill="#fff"/><path d="M22 22h20M22 30h20M22 38h12" stroke="#0277bd" stroke-width="3"/>',
    '#0277bd',
  ),
  blocks: svg(
    '<rect x="12" y="34" width="18" height="18" fill="#fff"/><rect x="34" y="34" width="18" height="18" fill="#fff"/><rect x="23" y="12" width="18" height="18" fill="#fff"/>',
    '#8e24aa',
  ),
};

function describeMd(p: Pkg, extra: string): string {
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

const packages: Pkg[] = [
  {
    name: 'pgpilot',
    displayName: 'PgPilot',
    provider: 'Harbor Lane Data',
    capabilities: 'Auto Pilot',
    categories: 'Database',
    summary:
      'Runs highly available PostgreSQL clusters with streaming replicas, point-in-time recovery and rolling minor upgrades.',
    description: 'Fail-over is automatic and takes seconds. Backups go to any S3-compatible store.',
    icon: icons.elephant,
    keywords: ['postgres', 'postgresql', 'database', 'sql'],
    defaultChannel: 'stable',
    channels: ['stable', 'fast', 'candidate'],
    owned: [
      {
        kind: 'PostgresCluster',
        plural: 'postgresclusters',
        group: 'pgpilot.example.com',
        description: 'A PostgreSQL cluster with its replicas and pooler.',
        specDescriptors: [
          {
            path: 'instances',
            displayName: 'Instances',
            description: 'PostgreSQL servers: one primary, the rest streaming replicas.',
            'x-descriptors': ['urn:alm:descriptor:com.tectonic.ui:podCount'],
          },
          {
            path: 'version',
            displayName: 'PostgreSQL version',
            'x-descriptors': [
              'urn:alm:descriptor:com.tectonic.ui:select:15',
              'urn:alm:descriptor:com.tectonic.ui:select:16',
            ],
          },
          {
            path: 'backups.enabled',
            displayName: 'Backups',
            'x-descriptors': ['urn:alm:descriptor:com.tectonic.ui:booleanSwitch'],
          },
        ],
        statusDescriptors: [
          { path: 'phase', displayName: 'Phase', 'x-descriptors': ['urn:alm:descriptor:io.kubernetes.phase'] },
          {
            path: 'conditions',
            displayName: 'Conditions',
            'x-descriptors': ['urn:alm:descriptor:io.kubernetes.conditions'],
          },
          {
            path: 'connectionSecret',
            displayName: 'Connection secret',
            description: 'Host, port, user and password of the primary.',
            'x-descriptors': ['urn:alm:descriptor:io.kubernetes:Secret'],
          },
          { path: 'dashboard', displayName: 'Dashboard', 'x-descriptors': ['urn:alm:descriptor:org.w3:link'] },
          { path: 'pods', displayName: 'Pods', 'x-descriptors': ['urn:alm:descriptor:com.tectonic.ui:podStatuses'] },
        ],
      },
      {
        kind: 'PostgresBackup',
        plural: 'postgresbackups',
        group: 'pgpilot.example.com',
        description: 'A one-off or scheduled backup of a cluster.',
      },
    ],
    modes: ALL_MODES,
    annotations: {
      'operatorframework.io/suggested-namespace': 'pgpilot-system',
      'operatorframework.io/initialization-resource': JSON.stringify({
        apiVersion: 'pgpilot.example.com/v1',
        kind: 'PostgresCluster',
        metadata: { name: 'main' },
        spec: { instances: 3, version: '16' },
      }),
      'operators.openshift.io/infrastructure-features': '["disconnected", "proxy-aware"]',
    },
    minKubeVersion: '1.25.0',
    bundles: [
      // Before 1.3.0 PgPilot used an API that OpenShift 4.19 no longer serves.
      { version: '1.0.0', channels: ['stable', 'fast'], maxOpenShiftVersion: '4.18' },
      { version: '1.1.0', replaces: '1.0.0', channels: ['stable', 'fast'], maxOpenShiftVersion: '4.18' },
      { version: '1.2.0', replaces: '1.1.0', channels: ['stable', 'fast'], maxOpenShiftVersion: '4.18' },
      { version: '1.3.0', replaces: '1.2.0', channels: ['stable', 'fast'] },
      { version: '1.4.0', replaces: '1.3.0', skipRange: '>=1.0.0 <1.4.0', channels: ['stable', 'fast'] },
      { version: '1.5.0', replaces: '1.4.0', channels: ['fast'] },
      { version: '2.0.0-rc.1', replaces: '1.5.0', skipRange: '>=1.4.0 <2.0.0-rc.1', channels: ['candidate'] },
    ],
  },
  {
    name: 'cachely',
    displayName: 'Cachely',
    provider: 'Quickwater Labs',
    capabilities: 'Seamless Upgrades',
    categories: 'Database',
    summary: 'An in-memory key-value cache compatible with the Redis protocol, with sentinel fail-over.',
    description: 'Version 0.9.1 shipped a broken persistence path; 0.9.2 skips it.',
    icon: icons.bolt,
    keywords: ['cache', 'redis', 'key-value'],
    defaultChannel: 'alpha',
    channels: ['alpha'],
    owned: [
      {
        kind: 'CacheCluster',
        plural: 'cacheclusters',
        group: 'cachely.example.com',
        description: 'A cache with its sentinels.',
      },
    ],
    modes: ['OwnNamespace', 'AllNamespaces'],
    annotations: { 'operatorframework.io/suggested-namespace': 'cachely' },
    bundles: [
      { version: '0.9.0' },
      { version: '0.9.1', replaces: '0.9.0' },
      { version: '0.9.2', replaces: '0.9.0', skips: ['0.9.1'] },
    ],
  },
  {
    name: 'quillmq',
    displayName: 'QuillMQ',
    provider: 'Inkwell Systems',
    capabilities: 'Full Lifecycle',
    categories: 'Streaming & Messaging',
    summary: 'A message broker with durable queues and topic exchanges, run per team in its own namespace.',
    description: 'Each broker runs in, and watches, the namespace it is installed in.',
    icon: icons.envelope,
    keywords: ['messaging', 'queue', 'amqp'],
    defaultChannel: 'stable',
    channels: ['stable'],
    owned: [
      { kind: 'Broker', plural: 'brokers', group: 'quillmq.example.com', description: 'A broker and its queues.' },
    ],
    modes: ['OwnNamespace'],
    bundles: [
      { version: '3.0.0', requiresPackage: [{ packageName: 'tenant-core', versionRange: '>=0.1.0 <1.0.0' }] },
      {
        version: '3.1.0',
        replaces: '3.0.0',
        requiresPackage: [{ packageName: 'tenant-core', versionRange: '>=0.1.0 <1.0.0' }],
      },
    ],
  },
  {
    name: 'certwarden',
    displayName: 'CertWarden',
    provider: 'Northgate Security',
    capabilities: 'Full Lifecycle',
    categories: 'Security',
    summary: 'Issues and renews TLS certificates from ACME, Vault-like and self-signed issuers.',
    description: 'Other operators in this catalog depend on its Certificate API.',
    icon: icons.shield,
    keywords: ['certificates', 'tls', 'acme'],
    defaultChannel: 'stable',
    channels: ['stable'],
    owned: [
      {
        kind: 'Issuer',
        plural: 'issuers',
        group: 'certwarden.example.com',
        description: 'Where certificates come from.',
      },
      {
        kind: 'Certificate',
        plural: 'certificates',
        group: 'certwarden.example.com',
        description: 'A certificate kept valid in a Secret.',
      },
    ],
    modes: ['AllNamespaces'],
    annotations: { 'operators.openshift.io/infrastructure-features': '["disconnected", "fips"]' },
    bundles: [{ version: '1.0.0' }, { version: '1.1.0', replaces: '1.0.0' }],
  },
  {
    name: 'vaultkeeper',
    displayName: 'VaultKeeper',
    provider: 'Northgate Security',
    capabilities: 'Deep Insights',
    categories: 'Security',
    summary:
      'A secrets vault per tenant: the operator runs in its own namespace and serves exactly one tenant namespace.',
    description: 'Install it into `team1-operator` watching `team1`: tenants never see its pod or service account.',
    icon: icons.keyhole,
    keywords: ['secrets', 'vault', 'multitenant'],
    defaultChannel: 'stable',
    channels: ['stable'],
    owned: [
      {
        kind: 'Vault',
        plural: 'vaults',
        group: 'vaultkeeper.example.com',
        description: 'A vault and its unseal keys.',
      },
    ],
    required: [
      {
        kind: 'Certificate',
        plural: 'certificates',
        group: 'certwarden.example.com',
        description: 'TLS for the vault endpoint.',
      },
    ],
    modes: ['OwnNamespace', 'SingleNamespace'],
    annotations: {
      // Infrastructure features in the newer form only (OpenShift 4.10 and later).
      'features.operators.openshift.io/disconnected': 'true',
      'features.operators.openshift.io/fips-compliant': 'true',
      'features.operators.openshift.io/proxy-aware': 'false',
      'features.operators.openshift.io/token-auth-aws': 'true',
      'operatorframework.io/suggested-namespace-template': JSON.stringify({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name: 'vaultkeeper-system',
          labels: { 'security.example.com/tier': 'restricted' },
          annotations: { 'openshift.io/node-selector': '' },
        },
      }),
      'operator.openshift.io/uninstall-message':
        'Unseal keys live in the Vault resources. Export them before you remove VaultKeeper, or the data in existing vaults cannot be read again.',
      'operators.openshift.io/valid-subscription': '["VaultKeeper Enterprise", "Northgate Platform Plus"]',
    },
    bundles: [
      {
        version: '2.0.0',
        requiresGvk: [{ group: 'certwarden.example.com', version: 'v1', kind: 'Certificate' }],
        requiresPackage: [{ packageName: 'certwarden', versionRange: '>=1.0.0 <2.0.0' }],
      },
      {
        version: '2.1.0',
        replaces: '2.0.0',
        requiresGvk: [{ group: 'certwarden.example.com', version: 'v1', kind: 'Certificate' }],
        requiresPackage: [{ packageName: 'certwarden', versionRange: '>=1.0.0 <2.0.0' }],
      },
    ],
  },
  {
    name: 'backstop',
    displayName: 'Backstop',
    provider: 'Harbor Lane Data',
    capabilities: 'Seamless Upgrades',
    categories: 'Storage',
    summary: 'Backs up namespaces, volumes and custom resources on a schedule, and restores them elsewhere.',
    description: 'From 2.0 it no longer supports watching all namespaces: pick the namespaces it protects.',
    icon: icons.archive,
    keywords: ['backup', 'restore', 'disaster recovery'],
    defaultChannel: 'v2',
    channels: ['v1', 'v2'],
    owned: [
      {
        kind: 'BackupPlan',
        plural: 'backupplans',
        group: 'backstop.example.com',
        description: 'What to back up, when, and where to.',
      },
    ],
    modes: ALL_MODES,
    annotations: { 'console.openshift.io/disable-operand-delete': 'true' },
    bundles: [
      { version: '1.0.0', channels: ['v1'], modes: ALL_MODES },
      { version: '1.1.0', replaces: '1.0.0', channels: ['v1'], modes: ALL_MODES },
      { version: '2.0.0', channels: ['v2'], modes: ['OwnNamespace', 'SingleNamespace', 'MultiNamespace'] },
    ],
  },
  {
    name: 'metricsmith',
    displayName: 'Metricsmith',
    provider: 'Lantern Observability',
    capabilities: 'Basic Install',
    categories: 'Monitoring',
    summary: 'A lightweight metrics collector for edge clusters. Built for arm64 only.',
    description: 'On amd64 clusters it cannot run: the console marks it so.',
    icon: icons.gauge,
    keywords: ['metrics', 'edge', 'arm'],
    defaultChannel: 'stable',
    channels: ['stable'],
    owned: [
      {
        kind: 'Collector',
        plural: 'collectors',
        group: 'metricsmith.example.com',
        description: 'A collector and its scrape targets.',
      },
    ],
    modes: ['AllNamespaces', 'OwnNamespace'],
    labels: { 'operatorframework.io/arch.arm64': 'supported', 'operatorframework.io/os.linux': 'supported' },
    bundles: [{ version: '0.4.0' }],
  },
  {
    name: 'gpu-forge',
    displayName: 'GPU Forge',
    provider: 'Anvil Compute',
    capabilities: 'Full Lifecycle',
    categories: 'AI/Machine Learning',
    summary: 'Installs GPU drivers, the device plugin and node labelling on GPU nodes.',
    description: 'Rebuilt for every driver release; build metadata tells the rebuilds apart.',
    icon: icons.chip,
    keywords: ['gpu', 'device plugin', 'accelerator'],
    defaultChannel: 'stable',
    channels: ['stable'],
    owned: [
      {
        kind: 'ClusterPolicy',
        plural: 'clusterpolicies',
        group: 'gpuforge.example.com',
        description: 'Which drivers and plugins run where.',
      },
    ],
    modes: ['AllNamespaces'],
    annotations: {
      'operators.openshift.io/infrastructure-features': '["disconnected", "fips", "proxy-aware"]',
      'operators.openshift.io/valid-subscription': '["Anvil Compute Support"]',
    },
    labels: {
      'operatorframework.io/arch.amd64': 'supported',
      'operatorframework.io/arch.arm64': 'supported',
      'operatorframework.io/os.linux': 'supported',
    },
    bundles: [{ version: '24.3.0+build.5' }, { version: '24.3.1+build.2', replaces: '24.3.0+build.5' }],
  },
  {
    name: 'flagpole',
    displayName: 'Flagpole',
    provider: 'Quickwater Labs',
    capabilities: 'Basic Install',
    categories: 'Developer Tools',
    summary: 'Feature flags served from a CRD, with gradual roll-outs per namespace.',
    description: 'Flagpole is end of life: its flags moved to a hosted service.',
    icon: icons.flag,
    keywords: ['feature flags', 'rollout'],
    defaultChannel: 'stable',
    channels: ['stable', 'legacy'],
    owned: [
      { kind: 'Flag', plural: 'flags', group: 'flagpole.example.com', description: 'A flag and its roll-out rules.' },
    ],
    modes: ['OwnNamespace', 'AllNamespaces'],
    deprecation: {
      package: 'Flagpole is no longer maintained; move your flags to the hosted Flagpole service before 2027.',
      channels: { legacy: 'The legacy channel gets no more updates; switch to stable.' },
    },
    bundles: [
      { version: '0.8.0', channels: ['legacy'] },
      {
        version: '1.0.0',
        channels: ['stable'],
        deprecated: 'Flagpole 1.0.0 leaks flag evaluations in its logs (FP-2026-3); use 1.0.1.',
      },
      { version: '1.0.1', replaces: '1.0.0', channels: ['stable'] },
    ],
  },
  {
    name: 'gatewise',
    displayName: 'Gatewise',
    provider: 'Crossing Networks',
    capabilities: 'Seamless Upgrades',
    categories: 'Networking',
    summary: 'An ingress gateway with rate limits, JWT checks and canary routing.',
    description:
      'Gatewise and RouteKit both provide the `Gateway` API: installing both where their OperatorGroups overlap is refused by OLM.',
    icon: icons.gateway,
    keywords: ['ingress', 'gateway', 'routing'],
    defaultChannel: 'stable',
    channels: ['stable'],
    owned: [
      { kind: 'Gateway', plural: 'gateways', group: 'net.example.com', description: 'A gateway and its listeners.' },
    ],
    modes: ['AllNamespaces', 'OwnNamespace', 'SingleNamespace'],
    bundles: [{ version: '1.2.0' }],
  },
  {
    name: 'routekit',
    displayName: 'RouteKit',
    provider: 'Crossing Networks',
    capabilities: 'Basic Install',
    categories: 'Networking',
    summary: 'A minimal gateway for development clusters.',
    description: 'Provides the same `Gateway` API as Gatewise.',
    icon: icons.route,
    keywords: ['ingress', 'gateway', 'development'],
    defaultChannel: 'stable',
    channels: ['stable'],
    owned: [
      { kind: 'Gateway', plural: 'gateways', group: 'net.example.com', description: 'A gateway and its listeners.' },
    ],
    modes: ['AllNamespaces', 'OwnNamespace', 'SingleNamespace'],
    annotations: {
      // OpenShift install options: a console plugin to enable, and cluster monitoring for an
      // openshift-* namespace the install creates (the README's install-wizard section).
      'console.openshift.io/plugins': '["routekit-console"]',
      'operatorframework.io/cluster-monitoring': 'true',
    },
    bundles: [{ version: '0.3.0' }],
  },
  {
    name: 'logship',
    displayName: 'Logship',
    provider: 'Lantern Observability',
    capabilities: 'Basic Install',
    categories: 'Logging & Tracing',
    summary: 'Ships container logs to object storage and search back-ends.',
    description:
      'Needs the `metrics-agent-core` package, which no catalog here offers: installing it shows how OLM reports an unsatisfiable dependency.',
    icon: icons.scroll,
    keywords: ['logging', 'logs', 'shipping'],
    defaultChannel: 'stable',
    channels: ['stable'],
    owned: [
      {
        kind: 'LogPipeline',
        plural: 'logpipelines',
        group: 'logship.example.com',
        description: 'Where logs go and how they are filtered.',
      },
    ],
    modes: ['AllNamespaces', 'OwnNamespace'],
    bundles: [{ version: '0.5.0', requiresPackage: [{ packageName: 'metrics-agent-core', versionRange: '>=1.0.0' }] }],
  },
  {
    name: 'tenant-core',
    displayName: 'Tenant Core',
    provider: 'Inkwell Systems',
    capabilities: 'Basic Install',
    categories: 'Integration & Delivery',
    summary: 'Shared tenancy APIs used by other Inkwell operators. Installed as their dependency, not on its own.',
    description: 'Marked non-standalone: consoles do not offer it as a tile.',
    icon: icons.blocks,
    keywords: ['tenancy', 'dependency'],
    defaultChannel: 'stable',
    channels: ['stable'],
    owned: [
      { kind: 'Tenant', plural: 'tenants', group: 'tenancy.example.com', description: 'A tenant and its quotas.' },
    ],
    modes: ['OwnNamespace', 'AllNamespaces'],
    annotations: { 'operators.operatorframework.io/operator-type': 'non-standalone' },
    bundles: [{ version: '0.2.0' }],
  },
];

function csvFor(p: Pkg, b: Bundle): Record<string, unknown> {
  const modes = b.modes ?? p.modes;
  const name = `${p.name}.v${b.version}`;
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

function crdFor(c: Crd): Record<string, unknown> {
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

function b64(o: unknown): string {
  return Buffer.from(JSON.stringify(o)).toString('base64');
}

function blobsFor(p: Pkg): unknown[] {
  const blobs: unknown[] = [
    {
      schema: 'olm.package',
      name: p.name,
      defaultChannel: p.defaultChannel,
      description: describeMd(p, p.description),
      icon: { base64data: p.icon, mediatype: 'image/svg+xml' },
    },
  ];
  for (const ch of p.channels) {
    const entries = p.bundles
      .filter((b) => (b.channels ?? [p.channels[0]]).includes(ch))
      .map((b) => ({
        name: `${p.name}.v${b.version}`,
        ...(b.replaces ? { replaces: `${p.name}.v${b.replaces}` } : {}),
        ...(b.skips ? { skips: b.skips.map((s) => `${p.name}.v${s}`) } : {}),
        ...(b.skipRange ? { skipRange: b.skipRange } : {}),
      }));
    blobs.push({ schema: 'olm.channel', package: p.name, name: ch, entries });
  }
  for (const b of p.bundles) {
    const csv = csvFor(p, b);
    blobs.push({
      schema: 'olm.bundle',
      package: p.name,
      name: `${p.name}.v${b.version}`,
      image: `quay.example.com/demo/${p.name}-bundle:v${b.version.replace(/\+/g, '_')}`,
      properties: [
        { type: 'olm.package', value: { packageName: p.name, version: b.version } },
        ...p.owned.map((c) => ({ type: 'olm.gvk', value: { group: c.group, version: 'v1', kind: c.kind } })),
        ...(b.requiresGvk ?? []).map((g) => ({ type: 'olm.gvk.required', value: g })),
        ...(b.requiresPackage ?? []).map((r) => ({ type: 'olm.package.required', value: r })),
        ...(b.maxOpenShiftVersion ? [{ type: 'olm.maxOpenShiftVersion', value: b.maxOpenShiftVersion }] : []),
        { type: 'olm.bundle.object', value: { data: b64(csv) } },
        ...p.owned.map((c) => ({ type: 'olm.bundle.object', value: { data: b64(crdFor(c)) } })),
      ],
      relatedImages: [
        { name: 'manager', image: (csv.spec as { relatedImages: { image: string }[] }).relatedImages[0]!.image },
      ],
    });
  }
  const deprecations: unknown[] = [];
  if (p.deprecation?.package)
    deprecations.push({ reference: { schema: 'olm.package' }, message: p.deprecation.package });
  for (const [ch, message] of Object.entries(p.deprecation?.channels ?? {}))
    deprecations.push({ reference: { schema: 'olm.channel', name: ch }, message });
  for (const b of p.bundles)
    if (b.deprecated)
      deprecations.push({
        reference: { schema: 'olm.bundle', name: `${p.name}.v${b.version}` },
        message: b.deprecated,
      });
  if (deprecations.length) blobs.push({ schema: 'olm.deprecations', package: p.name, entries: deprecations });
  return blobs;
}

/** Writes every package's catalog.yaml under `out` (replacing what is there). */
export function buildDemoCatalog(out: string): number {
  rmSync(out, { recursive: true, force: true });
  for (const p of packages) {
    mkdirSync(join(out, p.name), { recursive: true });
    const text = blobsFor(p)
      .map((b) => `---\n${yaml.dump(b, { lineWidth: -1, noRefs: true, sortKeys: false })}`)
      .join('');
    writeFileSync(join(out, p.name, 'catalog.yaml'), text);
  }
  return packages.length;
}

if (process.argv[1] && /demo-catalog[\\/]build\.ts$/.test(process.argv[1])) {
  console.log(`wrote ${buildDemoCatalog(DEMO_CATALOG_DIR)} packages to ${DEMO_CATALOG_DIR}`);
}
