// What a person reads about one operator version, from a CSV or anything shaped like one (a
// catalog's `olm.csv.metadata`, a PackageManifest's currentCSVDesc, a CSV in the cluster).
// Catalog content is third-party: every field is read defensively (numbers where strings belong,
// JSON lists written as text, links to `javascript:`), and an odd field reads as absent.
import { bundleCsv, type BundleModel } from '../fbc/model';
import { Keys } from './common';
import { INSTALL_MODE_TYPES, type InstallModeType } from './cluster-service-version';
import { infrastructureFeatures } from './infrastructure-features';
import { csvOpenShiftOptions, type CsvOpenShiftOptions } from '../install/openshift-options';

/** The loosest shape a CSV-like object has: only `metadata.annotations/labels` and `spec`. */
export interface CsvLike {
  metadata?: { name?: unknown; annotations?: Record<string, unknown>; labels?: Record<string, unknown> };
  spec?: Record<string, unknown>;
}

export interface ApiDescription {
  group: string;
  version: string;
  kind: string;
  /** `<plural>.<group>` for CRDs; the APIService name for aggregated APIs. */
  name: string;
  displayName?: string;
  description?: string;
  /** An owned CRD (instances can be created from a form), not an aggregated API. */
  crd?: boolean;
}

export interface NamespaceTemplate {
  name: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface CsvDescription {
  displayName: string;
  version?: string;
  /** Markdown, as the catalog wrote it: render it sanitised. */
  description: string;
  shortDescription?: string;
  provider: { name: string; url?: string };
  capability?: string;
  categories: string[];
  keywords: string[];
  maturity?: string;
  /** http(s) only. */
  repository?: string;
  containerImage?: string;
  createdAt?: string;
  support?: string;
  certified?: boolean;
  maintainers: { name: string; email?: string }[];
  /** http(s) only: links to anything else are dropped. */
  links: { name: string; url: string }[];
  installModes: { type: InstallModeType; supported: boolean }[];
  providedApis: ApiDescription[];
  requiredApis: ApiDescription[];
  suggestedNamespace?: string;
  suggestedNamespaceTemplate?: NamespaceTemplate;
  initializationResource?: { apiVersion: string; kind: string; name?: string; object: Record<string, unknown> };
  /** Examples of the provided APIs (`alm-examples`), for "create an instance". */
  examples: Record<string, unknown>[];
  infrastructureFeatures: string[];
  /** Cloud token support, console plugins and the cluster-monitoring request, for OpenShift's install options. */
  openshiftOptions: CsvOpenShiftOptions;
  validSubscription: string[];
  nonStandalone: boolean;
  arch: string[];
  os: string[];
  minKubeVersion?: string;
  uninstallMessage?: string;
  disableOperandDelete: boolean;
}

/** A bundle's CSV: its `olm.bundle.object` CSV, else its `olm.csv.metadata` shaped as one. */
export function csvOfBundle(b: Pick<BundleModel, 'properties' | 'csvMetadata'>): CsvLike | undefined {
  const full = bundleCsv(b) as CsvLike | undefined;
  if (full) return full;
  const m = b.csvMetadata;
  if (!m) return undefined;
  const { annotations, labels, crdDescriptions, apiServiceDefinitions, ...spec } = m;
  return {
    metadata: { annotations: record(annotations), labels: record(labels) },
    spec: {
      ...spec,
      ...(crdDescriptions ? { customresourcedefinitions: crdDescriptions } : {}),
      ...(apiServiceDefinitions ? { apiservicedefinitions: apiServiceDefinitions } : {}),
    },
  };
}

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

function record(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(record(v) ?? {})) {
    const s = str(val);
    if (s !== undefined) out[k] = s;
  }
  return out;
}

/** A JSON list of strings written into an annotation; anything else reads as empty. */
export function jsonStringList(v: unknown): string[] {
  const text = str(v);
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.map(str).filter((x): x is string => !!x) : [];
  } catch {
    return [];
  }
}

/** The URL when it is http(s); anything else (javascript:, data:, relative) is not a link. */
export function safeHttpUrl(v: unknown): string | undefined {
  const text = str(v)?.trim();
  if (!text) return undefined;
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function jsonValue(v: unknown): unknown {
  const text = str(v);
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function crdApis(v: unknown): ApiDescription[] {
  return list(v).flatMap((d) => {
    const r = record(d);
    const name = str(r?.name);
    const kind = str(r?.kind);
    if (!r || !name || !kind) return [];
    const group = name.includes('.') ? name.slice(name.indexOf('.') + 1) : '';
    return [
      {
        group,
        version: str(r.version) ?? '',
        kind,
        name,
        displayName: str(r.displayName),
        description: str(r.description),
        crd: true,
      },
    ];
  });
}

function apiServiceApis(v: unknown): ApiDescription[] {
  return list(v).flatMap((d) => {
    const r = record(d);
    const group = str(r?.group);
    const kind = str(r?.kind);
    if (!r || !group || !kind) return [];
    const version = str(r.version) ?? '';
    return [
      {
        group,
        version,
        kind,
        name: str(r.name) ?? `${version}.${group}`,
        displayName: str(r.displayName),
        description: str(r.description),
      },
    ];
  });
}

/** `operatorframework.io/arch.amd64: supported` → `amd64`, for one prefix. */
export function supportedLabels(labels: Record<string, unknown>, prefix: string): string[] {
  return Object.keys(labels)
    .filter((k) => k.startsWith(prefix) && str(labels[k]) === 'supported')
    .map((k) => k.slice(prefix.length))
    .sort();
}

function namespaceTemplate(v: unknown): NamespaceTemplate | undefined {
  const ns = record(jsonValue(v));
  const meta = record(ns?.metadata);
  const name = str(meta?.name);
  if (!meta || !name) return undefined;
  return { name, labels: stringMap(meta.labels), annotations: stringMap(meta.annotations) };
}

function initializationResource(v: unknown): CsvDescription['initializationResource'] {
  const obj = record(jsonValue(v));
  const apiVersion = str(obj?.apiVersion);
  const kind = str(obj?.kind);
  if (!obj || !apiVersion || !kind) return undefined;
  return { apiVersion, kind, name: str(record(obj.metadata)?.name), object: obj };
}

function examples(v: unknown): Record<string, unknown>[] {
  return list(jsonValue(v)).filter(
    (e): e is Record<string, unknown> => !!record(e) && !!str((e as Record<string, unknown>).kind),
  );
}

export function describeCsv(csv: CsvLike | undefined, fallbackName = ''): CsvDescription {
  const ann = record(csv?.metadata?.annotations) ?? {};
  const labels = record(csv?.metadata?.labels) ?? {};
  const spec = record(csv?.spec) ?? {};
  const provider = record(spec.provider);
  const crds = record(spec.customresourcedefinitions);
  const apis = record(spec.apiservicedefinitions);
  const modes = new Map(
    list(spec.installModes).flatMap((m) => {
      const r = record(m);
      const type = str(r?.type) as InstallModeType | undefined;
      return type && INSTALL_MODE_TYPES.includes(type)
        ? [[type, r?.supported === true || r?.supported === 'true'] as const]
        : [];
    }),
  );
  const certified = str(ann[Keys.certified]);
  return {
    displayName: str(spec.displayName) || fallbackName,
    version: str(spec.version),
    description: str(spec.description) ?? '',
    shortDescription: str(ann[Keys.description]),
    provider: { name: str(provider?.name) ?? '', url: safeHttpUrl(provider?.url) },
    capability: str(ann[Keys.capabilities]),
    categories: (str(ann[Keys.categories]) ?? '')
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean),
    keywords: list(spec.keywords)
      .map(str)
      .filter((k): k is string => !!k),
    maturity: str(spec.maturity),
    repository: safeHttpUrl(ann[Keys.repository]),
    containerImage: str(ann[Keys.containerImage]),
    createdAt: str(ann[Keys.createdAt]),
    support: str(ann[Keys.support]),
    certified: certified === undefined ? undefined : certified === 'true',
    maintainers: list(spec.maintainers).flatMap((m) => {
      const r = record(m);
      const name = str(r?.name);
      return name ? [{ name, email: str(r?.email) }] : [];
    }),
    links: list(spec.links).flatMap((l) => {
      const r = record(l);
      const url = safeHttpUrl(r?.url);
      return url ? [{ name: str(r?.name) || url, url }] : [];
    }),
    installModes: INSTALL_MODE_TYPES.map((type) => ({ type, supported: modes.get(type) ?? false })),
    providedApis: [...crdApis(crds?.owned), ...apiServiceApis(apis?.owned)],
    requiredApis: [...crdApis(crds?.required), ...apiServiceApis(apis?.required)],
    suggestedNamespace: str(ann[Keys.suggestedNamespace]),
    suggestedNamespaceTemplate: namespaceTemplate(ann[Keys.suggestedNamespaceTemplate]),
    initializationResource: initializationResource(ann[Keys.initializationResource]),
    examples: examples(ann[Keys.almExamples]),
    infrastructureFeatures: infrastructureFeatures(ann as Record<string, unknown>),
    openshiftOptions: csvOpenShiftOptions(ann as Record<string, unknown>),
    validSubscription: jsonStringList(ann[Keys.validSubscription]),
    nonStandalone: str(ann[Keys.operatorType]) === 'non-standalone',
    arch: supportedLabels(labels, Keys.archLabelPrefix),
    os: supportedLabels(labels, Keys.osLabelPrefix),
    minKubeVersion: str(spec.minKubeVersion),
    uninstallMessage: str(ann[Keys.uninstallMessage]),
    disableOperandDelete: str(ann[Keys.disableOperandDelete]) === 'true',
  };
}

/** The namespace a wizard suggests: the annotation, else the template's name. */
export function suggestedNamespaceOf(
  d: Pick<CsvDescription, 'suggestedNamespace' | 'suggestedNamespaceTemplate'>,
): string | undefined {
  return d.suggestedNamespace || d.suggestedNamespaceTemplate?.name;
}
