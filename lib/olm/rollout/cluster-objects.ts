// What the work agent applies on every placed cluster, with the agent's own identity there, and
// what it reads back. The objects are those the install wizards make (lib/olm/install/,
// lib/olm/v1/): for OLM v0 a Namespace, an OperatorGroup and a Subscription (or, with an
// OperatorPolicy, the policy that makes and keeps them); for OLM v1 a Namespace, the installer
// ServiceAccount with the rights the bundle needs (lib/olm/v1/installer-rbac.ts) and the
// ClusterExtension.
// Status feedback (work/v1 types.go, FeedbackRule JSONPaths; ocm v1.0.0
// pkg/work/spoke/statusfeedback/reader.go evaluates each path against the whole object and
// returns only a single integer, string or boolean) brings the installed version and state back
// to the hub. A CEL condition rule named `Available` (work/v1 ConditionRule) replaces the
// manifest's "it exists" with the install's health, so OCM's rollout waits for it: see
// hub-objects.ts. Feedback and rules apply only to objects the ManifestWork itself made, so a CSV
// (named by OLM, not by us) cannot be read back: v0 health is the Subscription's word.
import type { RolloutChoices } from './choices';

type Obj = Record<string, unknown>;

export const SUBSCRIPTION_FEEDBACK = {
  installedCSV: '.status.installedCSV',
  currentCSV: '.status.currentCSV',
  state: '.status.state',
  resolutionFailed: '.status.conditions[?(@.type=="ResolutionFailed")].status',
} as const;
export const EXTENSION_FEEDBACK = {
  bundleVersion: '.status.install.bundle.version',
  bundleName: '.status.install.bundle.name',
  installed: '.status.conditions[?(@.type=="Installed")].status',
  progressing: '.status.conditions[?(@.type=="Progressing")].reason',
} as const;
// config-policy-controller v0.16.0 api/v1beta1/operatorpolicy_types.go: status.compliant, and the
// `Compliant` condition whose message joins every other condition's (operatorpolicy_status.go,
// calculateComplianceCondition): the policy's own words per cluster. The generations tell whether
// that was said about the policy's current spec (the controller sets observedGeneration).
export const POLICY_FEEDBACK = {
  compliant: '.status.compliant',
  compliantMessage: '.status.conditions[?(@.type=="Compliant")].message',
  installPlanMessage: '.status.conditions[?(@.type=="InstallPlanCompliant")].message',
  observedGeneration: '.status.observedGeneration',
  generation: '.metadata.generation',
} as const;

// CEL over the object as the agent reads it (ocm pkg/work/spoke/conditions/reader.go: `object`).
// v0: OLM has installed what the channel offers (docs/olm/subscriptions.md#state) and its last
// resolution did not fail: a Subscription moved to a channel OLM cannot resolve keeps its old
// installedCSV and AtLatestKnown, and only its ResolutionFailed condition tells.
export const SUBSCRIPTION_HEALTHY =
  'has(object.status) && has(object.status.installedCSV) && has(object.status.state) && ' +
  "object.status.state == 'AtLatestKnown' && !(has(object.status.conditions) && " +
  "object.status.conditions.exists(c, c.type == 'ResolutionFailed' && c.status == 'True'))";
// v1: operator-controller's Installed condition (docs/olm-v1).
export const EXTENSION_HEALTHY =
  "has(object.status) && has(object.status.conditions) && object.status.conditions.exists(c, c.type == 'Installed' && c.status == 'True')";
// Compliant about its current spec: after an upgrade of the rollout changes the policy, its
// compliance with the old spec is not the new one's.
export const POLICY_HEALTHY =
  "has(object.status) && has(object.status.compliant) && object.status.compliant == 'Compliant' && " +
  'has(object.status.observedGeneration) && object.status.observedGeneration == object.metadata.generation';

export const operatorGroupName = (c: RolloutChoices) => `${c.installNamespace}-operators`;
export const installerAccount = (c: RolloutChoices) => `${c.package}-installer`;

function namespace(c: RolloutChoices): Obj {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: c.installNamespace } };
}

function subscriptionSpec(c: RolloutChoices): Obj {
  return {
    name: c.package,
    source: c.catalog.name,
    sourceNamespace: c.catalog.namespace,
    ...(c.channel ? { channel: c.channel } : {}),
    ...(c.version ? { startingCSV: c.version } : {}),
  };
}

function v0Objects(c: RolloutChoices): Obj[] {
  if (c.operatorPolicy)
    return [
      namespace(c),
      {
        apiVersion: 'policy.open-cluster-management.io/v1beta1',
        kind: 'OperatorPolicy',
        metadata: { name: c.name, namespace: c.operatorPolicy.namespace },
        spec: {
          remediationAction: 'enforce',
          severity: 'medium',
          complianceType: 'musthave',
          // No installPlanApproval: config-policy-controller refuses it there and sets it itself
          // from upgradeApproval and versions (lib/olm/rollout/operator-policy.ts).
          subscription: { namespace: c.installNamespace, ...subscriptionSpec(c) },
          upgradeApproval: c.operatorPolicy.upgradeApproval,
          ...(c.operatorPolicy.allowedVersions.length ? { versions: [...c.operatorPolicy.allowedVersions] } : {}),
        },
      },
    ];
  return [
    namespace(c),
    {
      apiVersion: 'operators.coreos.com/v1',
      kind: 'OperatorGroup',
      metadata: { name: operatorGroupName(c), namespace: c.installNamespace },
      spec: {},
    },
    {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'Subscription',
      metadata: { name: c.package, namespace: c.installNamespace },
      spec: { ...subscriptionSpec(c), installPlanApproval: c.approval ?? 'Automatic' },
    },
  ];
}

function v1Objects(c: RolloutChoices, installerRbac: Obj[]): Obj[] {
  return [
    namespace(c),
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: installerAccount(c), namespace: c.installNamespace },
    },
    ...installerRbac,
    {
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterExtension',
      metadata: { name: c.package },
      spec: {
        namespace: c.installNamespace,
        serviceAccount: { name: installerAccount(c) },
        source: {
          sourceType: 'Catalog',
          catalog: {
            packageName: c.package,
            ...(c.channel ? { channels: [c.channel] } : {}),
            ...(c.version ? { version: c.version } : {}),
            selector: { matchLabels: { 'olm.operatorframework.io/metadata.name': c.catalog.name } },
          },
        },
      },
    },
  ];
}

/** The manifests of every cluster's ManifestWork. `installerRbac`: v1's rights, from installerRbac(). */
export function clusterObjects(c: RolloutChoices, installerRbac: Obj[] = []): Obj[] {
  return c.olm === 'v1' ? v1Objects(c, installerRbac) : v0Objects(c);
}

const jsonPaths = (paths: Record<string, string>) => [
  { type: 'JSONPaths', jsonPaths: Object.entries(paths).map(([name, path]) => ({ name, path })) },
];
const healthRule = (expression: string, message: string) => [
  { condition: 'Available', type: 'CEL', celExpressions: [expression], message },
];

/** The one object whose status says how the install is doing on a cluster, what to read, and its health. */
export function manifestConfigs(c: RolloutChoices): Obj[] {
  if (c.olm === 'v1')
    return [
      {
        resourceIdentifier: {
          group: 'olm.operatorframework.io',
          resource: 'clusterextensions',
          name: c.package,
          namespace: '',
        },
        feedbackRules: jsonPaths(EXTENSION_FEEDBACK),
        conditionRules: healthRule(EXTENSION_HEALTHY, 'healthy when the ClusterExtension is Installed'),
      },
    ];
  if (c.operatorPolicy)
    return [
      {
        resourceIdentifier: {
          group: 'policy.open-cluster-management.io',
          resource: 'operatorpolicies',
          name: c.name,
          namespace: c.operatorPolicy.namespace,
        },
        feedbackRules: jsonPaths(POLICY_FEEDBACK),
        conditionRules: healthRule(
          POLICY_HEALTHY,
          'healthy when the OperatorPolicy is Compliant, as evaluated for its current spec',
        ),
      },
    ];
  return [
    {
      resourceIdentifier: {
        group: 'operators.coreos.com',
        resource: 'subscriptions',
        name: c.package,
        namespace: c.installNamespace,
      },
      feedbackRules: jsonPaths(SUBSCRIPTION_FEEDBACK),
      conditionRules: healthRule(
        SUBSCRIPTION_HEALTHY,
        'healthy when the Subscription is AtLatestKnown with an installed CSV and its last resolution did not fail',
      ),
    },
  ];
}
