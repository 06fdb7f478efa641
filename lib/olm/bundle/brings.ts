// What a registry+v1 bundle brings into a cluster, read from its CSV and other objects (as the
// catalog's inline objects or its image give them, lib/server/bundle-images/bundle-manifests.ts):
// the RBAC rules its service accounts get (brings-rules.ts says what the two scopes mean), the
// CRDs it owns and their versions, the APIs it needs, its admission and conversion webhooks, the
// API services it serves, the images it runs, and its other objects. The answer is for a person
// deciding whether to install; it is never used to create or grant anything.
//
// Where each part comes from (CSV fields as OLM's v1alpha1 types name them):
// - CRDs: the bundle's CustomResourceDefinition objects (apiextensions.k8s.io/v1 `spec.versions`
//   with served, storage, deprecated; v1beta1's single `spec.version` is served and stored). A
//   bundle read from `olm.csv.metadata` alone has no CRD objects, so `spec.customresourcedefinitions
//   .owned` names them and their versions, without served or storage;
// - webhooks: `spec.webhookdefinitions` (OLM makes a Validating- or MutatingWebhookConfiguration
//   per entry, or sets the named CRDs' conversion webhook); admissionregistration.k8s.io/v1
//   defaults failurePolicy to Fail, so a webhook that says none refuses requests while it is down;
// - API services: `spec.apiservicedefinitions.owned`, one APIService `<version>.<group>` each;
// - images: every container and init container of `spec.install.spec.deployments`, and
//   `spec.relatedImages` (what the operator may start itself, and what mirroring tools copy).
// Catalog content is hostile: wrong types are skipped, lists bounded (read-strict.ts).
import {
  groupWords,
  joinWords,
  readPermissions,
  type BringsPermission,
  type BringsRule,
  type Notable,
  type NotableCode,
  type PolicyRuleWords,
  type RuleScope,
} from './brings-rules';
import { Cuts, bool, isRecord, record, text } from './read-strict';

export type { BringsPermission, BringsRule, Notable, NotableCode, PolicyRuleWords, RuleScope };

export interface BringsCrdVersion {
  name: string;
  /** Unknown (undefined) when only the CSV names the version. */
  served?: boolean;
  storage?: boolean;
  deprecated: boolean;
  deprecationWarning?: string;
}

export interface BringsCrd {
  name: string;
  group?: string;
  kind?: string;
  scope?: 'Namespaced' | 'Cluster';
  versions: BringsCrdVersion[];
  /** `object`: the bundle's CRD; `csv`: only spec.customresourcedefinitions.owned names it. */
  from: 'object' | 'csv';
}

export interface BringsApi {
  group: string;
  version: string;
  kind: string;
  /** A CRD (`customresourcedefinitions.required`) or an API service (`apiservicedefinitions.required`). */
  by: 'crd' | 'apiService';
}

export interface BringsWebhookRule {
  operations: string[];
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
  scope?: string;
}

export type WebhookType = 'ValidatingAdmissionWebhook' | 'MutatingAdmissionWebhook' | 'ConversionWebhook';

export interface BringsWebhook {
  /** generateName: OLM names the configuration after it. */
  name: string;
  type: WebhookType;
  /** As the CSV gives it; admissionregistration.k8s.io/v1 takes none as Fail. */
  failurePolicy?: string;
  sideEffects?: string;
  timeoutSeconds?: number;
  deployment?: string;
  rules: BringsWebhookRule[];
  conversionCRDs: string[];
  /** What it does, in words: one sentence per rule (or the CRDs it converts) and what a failure does. */
  words: string[];
}

export interface BringsApiService {
  /** The APIService's name, `<version>.<group>`. */
  name: string;
  group: string;
  version: string;
  kind: string;
  deployment?: string;
}

export interface BringsImage {
  image: string;
  /** Where it is used: "container manager of deployment foo", "related image foo". */
  uses: string[];
}

export interface BringsObject {
  kind: string;
  name: string;
}

export interface BundleBrings {
  csvName: string;
  version?: string;
  clusterWide: BringsPermission[];
  namespaced: BringsPermission[];
  crds: BringsCrd[];
  requiredApis: BringsApi[];
  webhooks: BringsWebhook[];
  apiServices: BringsApiService[];
  images: BringsImage[];
  /** The install modes the CSV supports. */
  installModes: string[];
  /** The bundle's objects other than the CSV and its CRDs. */
  others: BringsObject[];
  /** What was cut because the bundle gave more than is shown. */
  cut: string[];
}

export interface BundleContent {
  csv: unknown;
  others: readonly unknown[];
}

const INSTALL_MODES = new Set(['OwnNamespace', 'SingleNamespace', 'MultiNamespace', 'AllNamespaces']);
const WEBHOOK_TYPES = new Set<string>(['ValidatingAdmissionWebhook', 'MutatingAdmissionWebhook', 'ConversionWebhook']);

const isCrd = (o: Record<string, unknown>) =>
  o.kind === 'CustomResourceDefinition' &&
  typeof o.apiVersion === 'string' &&
  o.apiVersion.startsWith('apiextensions.k8s.io/');

function crdVersions(spec: Record<string, unknown>, cuts: Cuts, crd: string): BringsCrdVersion[] {
  const listed = cuts.list(spec.versions, `versions of CRD ${crd}`).map(record);
  const out: BringsCrdVersion[] = [];
  for (const v of listed) {
    const name = text(v.name);
    if (!name) continue;
    const warning = text(v.deprecationWarning);
    out.push({
      name,
      served: bool(v.served) ?? false,
      storage: bool(v.storage) ?? false,
      deprecated: bool(v.deprecated) ?? false,
      ...(warning ? { deprecationWarning: warning } : {}),
    });
  }
  // apiextensions.k8s.io/v1beta1: a lone `spec.version` is the one served and stored.
  const lone = text(spec.version);
  if (!out.length && lone) out.push({ name: lone, served: true, storage: true, deprecated: false });
  return out;
}

function crdsOf(csvSpec: Record<string, unknown>, objects: Record<string, unknown>[], cuts: Cuts): BringsCrd[] {
  const crds = new Map<string, BringsCrd>();
  for (const o of objects.filter(isCrd)) {
    const name = text(record(o.metadata).name);
    if (!name || crds.has(name)) continue;
    const spec = record(o.spec);
    const names = record(spec.names);
    const scope = spec.scope === 'Cluster' || spec.scope === 'Namespaced' ? spec.scope : undefined;
    const group = text(spec.group);
    const kind = text(names.kind);
    crds.set(name, {
      name,
      ...(group ? { group } : {}),
      ...(kind ? { kind } : {}),
      ...(scope ? { scope } : {}),
      versions: crdVersions(spec, cuts, name),
      from: 'object',
    });
  }
  const fromCsv = new Map<string, BringsCrd>();
  for (const owned of cuts.list(record(csvSpec.customresourcedefinitions).owned, 'owned CRDs').map(record)) {
    const name = text(owned.name);
    const version = text(owned.version);
    if (!name || crds.has(name)) continue;
    const kind = text(owned.kind);
    const had = fromCsv.get(name) ?? {
      name,
      group: name.slice(name.indexOf('.') + 1),
      ...(kind ? { kind } : {}),
      versions: [],
      from: 'csv' as const,
    };
    if (version && !had.versions.some((v) => v.name === version))
      had.versions.push({ name: version, deprecated: false });
    fromCsv.set(name, had);
  }
  return [...crds.values(), ...fromCsv.values()];
}

function requiredApis(csvSpec: Record<string, unknown>, cuts: Cuts): BringsApi[] {
  const out: BringsApi[] = [];
  for (const r of cuts.list(record(csvSpec.customresourcedefinitions).required, 'required CRDs').map(record)) {
    const name = text(r.name);
    const version = text(r.version);
    const kind = text(r.kind);
    if (name && version && kind) out.push({ group: name.slice(name.indexOf('.') + 1), version, kind, by: 'crd' });
  }
  for (const r of cuts.list(record(csvSpec.apiservicedefinitions).required, 'required API services').map(record)) {
    const group = text(r.group);
    const version = text(r.version);
    const kind = text(r.kind);
    if (group && version && kind) out.push({ group, version, kind, by: 'apiService' });
  }
  return out;
}

const OPERATION_WORDS: Record<string, string> = {
  CREATE: 'create',
  UPDATE: 'update',
  DELETE: 'delete',
  CONNECT: 'connect',
};

function webhookRuleWords(type: WebhookType, r: BringsWebhookRule): string {
  const doing = type === 'MutatingAdmissionWebhook' ? 'sees and may change' : 'sees and may refuse';
  const ops = r.operations.includes('*')
    ? 'every operation'
    : joinWords(r.operations.map((o) => OPERATION_WORDS[o] ?? o));
  const what = r.resources.includes('*') ? 'every resource' : joinWords(r.resources);
  return `${doing} ${ops} of ${what}${groupWords(r.apiGroups)}`;
}

function webhooksOf(csvSpec: Record<string, unknown>, cuts: Cuts): BringsWebhook[] {
  const out: BringsWebhook[] = [];
  for (const w of cuts.list(csvSpec.webhookdefinitions, 'webhooks').map(record)) {
    const type = text(w.type);
    const name = text(w.generateName);
    if (!type || !WEBHOOK_TYPES.has(type) || !name) continue;
    const rules: BringsWebhookRule[] = cuts.list(w.rules, `rules of webhook ${name}`).flatMap((v) => {
      if (!isRecord(v)) return [];
      const scope = text(v.scope);
      return [
        {
          operations: cuts.texts(v.operations, 'operations of a webhook rule'),
          apiGroups: Array.isArray(v.apiGroups)
            ? cuts.list(v.apiGroups, 'API groups of a webhook rule').filter((g): g is string => typeof g === 'string')
            : [],
          apiVersions: cuts.texts(v.apiVersions, 'API versions of a webhook rule'),
          resources: cuts.texts(v.resources, 'resources of a webhook rule'),
          ...(scope ? { scope } : {}),
        },
      ];
    });
    const failurePolicy = text(w.failurePolicy);
    const sideEffects = text(w.sideEffects);
    const deployment = text(w.deploymentName);
    const timeout =
      typeof w.timeoutSeconds === 'number' && Number.isFinite(w.timeoutSeconds) ? w.timeoutSeconds : undefined;
    const conversionCRDs = cuts.texts(w.conversionCRDs, `CRDs of webhook ${name}`);
    const t = type as WebhookType;
    const words =
      t === 'ConversionWebhook'
        ? [`converts ${joinWords(conversionCRDs) || 'no CRD'} between versions`]
        : rules.map((r) => webhookRuleWords(t, r));
    if (t !== 'ConversionWebhook')
      words.push(
        (failurePolicy ?? 'Fail') === 'Fail'
          ? 'while it is down, the requests it matches are refused'
          : 'while it is down, the requests it matches are let through unchecked',
      );
    out.push({
      name,
      type: t,
      ...(failurePolicy ? { failurePolicy } : {}),
      ...(sideEffects ? { sideEffects } : {}),
      ...(timeout !== undefined ? { timeoutSeconds: timeout } : {}),
      ...(deployment ? { deployment } : {}),
      rules,
      conversionCRDs,
      words,
    });
  }
  return out;
}

function apiServicesOf(csvSpec: Record<string, unknown>, cuts: Cuts): BringsApiService[] {
  const out: BringsApiService[] = [];
  for (const a of cuts.list(record(csvSpec.apiservicedefinitions).owned, 'owned API services').map(record)) {
    const group = text(a.group);
    const version = text(a.version);
    const kind = text(a.kind);
    const deployment = text(a.deploymentName);
    if (!group || !version || !kind) continue;
    out.push({ name: `${version}.${group}`, group, version, kind, ...(deployment ? { deployment } : {}) });
  }
  return out;
}

function imagesOf(csvSpec: Record<string, unknown>, cuts: Cuts): BringsImage[] {
  const images = new Map<string, string[]>();
  const note = (image: string | undefined, where: string) => {
    if (!image) return;
    const uses = images.get(image) ?? [];
    if (!uses.includes(where)) uses.push(where);
    images.set(image, uses);
  };
  const deployments = cuts.list(record(record(csvSpec.install).spec).deployments, 'deployments').map(record);
  for (const d of deployments) {
    const dep = text(d.name) ?? '(unnamed)';
    const pod = record(record(record(d.spec).template).spec);
    for (const [field, label] of [
      ['initContainers', 'init container'],
      ['containers', 'container'],
    ] as const) {
      for (const c of cuts.list(pod[field], `${label}s of deployment ${dep}`).map(record))
        note(text(c.image), `${label} ${text(c.name) ?? '(unnamed)'} of deployment ${dep}`);
    }
  }
  for (const r of cuts.list(csvSpec.relatedImages, 'related images').map(record)) {
    const name = text(r.name);
    note(text(r.image), name ? `related image ${name}` : 'related image');
  }
  return [...images].map(([image, uses]) => ({ image, uses }));
}

/** What the bundle with this CSV and these other objects brings into a cluster. */
export function bundleBrings(content: BundleContent): BundleBrings {
  const cuts = new Cuts();
  const csv = record(content.csv);
  const spec = record(csv.spec);
  const objects = cuts.list(content.others, 'objects of the bundle').filter(isRecord);
  const crds = crdsOf(spec, objects, cuts);
  const clusterScoped = new Set(
    crds.filter((c) => c.scope === 'Cluster' && c.group).map((c) => `${c.group}/${c.name.split('.')[0]}`),
  );
  const installSpec = record(record(spec.install).spec);
  const others: BringsObject[] = [];
  for (const o of objects) {
    const kind = text(o.kind);
    if (!kind || isCrd(o)) continue;
    others.push({ kind, name: text(record(o.metadata).name) ?? '(unnamed)' });
  }
  const version = text(spec.version);
  const installModes = cuts
    .list(spec.installModes, 'install modes')
    .map(record)
    .filter((m) => m.supported === true && typeof m.type === 'string' && INSTALL_MODES.has(m.type))
    .map((m) => m.type as string);
  const brings: BundleBrings = {
    csvName: text(record(csv.metadata).name) ?? '',
    ...(version ? { version } : {}),
    clusterWide: readPermissions(installSpec.clusterPermissions, 'clusterWide', cuts, clusterScoped),
    namespaced: readPermissions(installSpec.permissions, 'namespaced', cuts, clusterScoped),
    crds,
    requiredApis: requiredApis(spec, cuts),
    webhooks: webhooksOf(spec, cuts),
    apiServices: apiServicesOf(spec, cuts),
    images: imagesOf(spec, cuts),
    installModes: [...new Set(installModes)],
    others,
    cut: [],
  };
  brings.cut = [...new Set(cuts.said)];
  return brings;
}
