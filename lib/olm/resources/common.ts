// Shapes shared by every Kubernetes kind the console reads, and the well-known OLM annotation
// and label keys, written once (docs/olm/labels-and-annotations.md and the OpenShift console's
// conventions for CSV annotations).

/** How to reach a kind over the API: the URL parts and the kind name. */
export interface ResourceType {
  group: string;
  version: string;
  /** The plural resource name in URLs (`subscriptions`). */
  plural: string;
  namespaced: boolean;
  kind: string;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

/** metav1.Condition. */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
}

export const OLM_GROUP = 'operators.coreos.com';
export const PACKAGES_GROUP = 'packages.operators.coreos.com';

/** Annotations and labels OLM and consoles read. */
export const Keys = {
  operatorGroup: 'olm.operatorGroup',
  operatorNamespace: 'olm.operatorNamespace',
  targetNamespaces: 'olm.targetNamespaces',
  providedAPIs: 'olm.providedAPIs',
  skipRange: 'olm.skipRange',
  copiedFrom: 'olm.copiedFrom',
  managed: 'olm.managed',
  generatedBy: 'olm.generated-by',
  excludeGlobalNamespaceResolution: 'olm.operatorframework.io/exclude-global-namespace-resolution',
  properties: 'operatorframework.io/properties',
  suggestedNamespace: 'operatorframework.io/suggested-namespace',
  suggestedNamespaceTemplate: 'operatorframework.io/suggested-namespace-template',
  initializationResource: 'operatorframework.io/initialization-resource',
  operatorType: 'operators.operatorframework.io/operator-type',
  uninstallMessage: 'operator.openshift.io/uninstall-message',
  disableOperandDelete: 'console.openshift.io/disable-operand-delete',
  infrastructureFeatures: 'operators.openshift.io/infrastructure-features',
  validSubscription: 'operators.openshift.io/valid-subscription',
  capabilities: 'capabilities',
  categories: 'categories',
  certified: 'certified',
  containerImage: 'containerImage',
  createdAt: 'createdAt',
  repository: 'repository',
  support: 'support',
  description: 'description',
  almExamples: 'alm-examples',
  bundleUnpackTimeout: 'operatorframework.io/bundle-unpack-timeout',
  /** Prefixes of the OS/arch labels packageserver adds (`operatorframework.io/os.linux: supported`). */
  osLabelPrefix: 'operatorframework.io/os.',
  archLabelPrefix: 'operatorframework.io/arch.',
} as const;

/** `operators.coreos.com/<package>.<namespace>`: the adoption label on an operator's objects. */
export function operatorLabelKey(packageName: string, namespace: string): string {
  return `operators.coreos.com/${packageName}.${namespace}`;
}

export function apiVersionOf(t: ResourceType): string {
  return t.group ? `${t.group}/${t.version}` : t.version;
}

/** The condition of a type, or undefined. */
export function findCondition<C extends { type: string }>(
  conditions: readonly C[] | undefined,
  type: string,
): C | undefined {
  return conditions?.find((c) => c.type === type);
}

/**
 * The resource a kind is served as when nothing names it, by the API machinery's own guess
 * (meta.UnsafeGuessKindToResource: lower case, plural).
 */
export function guessResource(kind: string): string {
  const k = kind.toLowerCase();
  if (k.endsWith('s')) return `${k}es`;
  if (k.endsWith('y') && !/[aeiou]y$/.test(k)) return `${k.slice(0, -1)}ies`;
  return `${k}s`;
}
