// The console's Kubernetes client: typed-enough CRUD on any resource type, made with one
// KubeConfig (and so one identity). Errors are KubeErrors carrying the API server's reason.
import type { KubeConfig } from '@kubernetes/client-node';
import { apiVersionOf, type ResourceType } from '../olm/resources/common';
import { kubeRequest, kubeRequestBytes, type Query } from './http';

export type { ResourceType };

export interface ObjectMetaLike {
  name?: string;
  namespace?: string;
  resourceVersion?: string;
  uid?: string;
  [k: string]: unknown;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMetaLike;
  [k: string]: unknown;
}

/** Anything shaped like a Kubernetes object: the typed kinds of lib/olm/resources fit it. */
export interface AnyObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; generateName?: string; namespace?: string; resourceVersion?: string; uid?: string };
}

export interface KubeList<T> {
  items: T[];
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
}

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
}

export type PatchType = 'merge' | 'json' | 'strategic';
const patchContentTypes: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};

/** `/api/v1/namespaces/x/pods/y/status`, `/apis/g/v/plural` … */
export function resourcePath(t: ResourceType, namespace?: string, name?: string, subresource?: string): string {
  const base = t.group ? `/apis/${t.group}/${t.version}` : `/api/${t.version}`;
  const ns = t.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  const n = name ? `/${encodeURIComponent(name)}` : '';
  const sub = name && subresource ? `/${subresource}` : '';
  return `${base}${ns}/${t.plural}${n}${sub}`;
}

export class KubeClient {
  constructor(readonly kubeConfig: KubeConfig) {}

  get<T extends object>(t: ResourceType, name: string, namespace?: string): Promise<T> {
    return kubeRequest<T>(this.kubeConfig, { method: 'GET', path: resourcePath(t, namespace, name), what: `get ${t.kind} ${name}` });
  }

  /** A subresource that answers bytes (a PackageManifest's icon). */
  getBytes(t: ResourceType, name: string, namespace: string | undefined, subresource: string): Promise<{ body: Buffer; contentType: string }> {
    return kubeRequestBytes(this.kubeConfig, { method: 'GET', path: resourcePath(t, namespace, name, subresource), what: `get ${t.kind} ${name} ${subresource}` });
  }

  list<T extends object>(t: ResourceType, opts: ListOptions = {}): Promise<KubeList<T>> {
    const query: Query = { labelSelector: opts.labelSelector, fieldSelector: opts.fieldSelector, limit: opts.limit, continue: opts.continue };
    return kubeRequest<KubeList<T>>(this.kubeConfig, { method: 'GET', path: resourcePath(t, opts.namespace), query, what: `list ${t.plural}` });
  }

  /** Every page of a list, followed through `continue`. */
  async listAll<T extends object>(t: ResourceType, opts: Omit<ListOptions, 'continue'> = {}): Promise<KubeList<T>> {
    const items: T[] = [];
    let cont: string | undefined;
    let resourceVersion: string | undefined;
    do {
      const page = await this.list<T>(t, { ...opts, limit: opts.limit ?? 500, continue: cont });
      items.push(...page.items);
      cont = page.metadata.continue || undefined;
      resourceVersion = page.metadata.resourceVersion;
    } while (cont);
    return { items, metadata: { resourceVersion } };
  }

  create<T extends object>(t: ResourceType, obj: T, opts: { namespace?: string; dryRun?: boolean } = {}): Promise<T> {
    const meta = (obj as AnyObject).metadata;
    const namespace = opts.namespace ?? meta?.namespace;
    const body = { apiVersion: apiVersionOf(t), kind: t.kind, ...obj };
    return kubeRequest<T>(this.kubeConfig, {
      method: 'POST', path: resourcePath(t, namespace), body, query: { dryRun: opts.dryRun ? 'All' : undefined },
      what: `create ${t.kind} ${meta?.name ?? meta?.generateName ?? ''}`.trim(),
    });
  }

  replace<T extends object>(t: ResourceType, obj: T, subresource?: string): Promise<T> {
    const meta = (obj as AnyObject).metadata;
    const name = meta?.name ?? '';
    return kubeRequest<T>(this.kubeConfig, {
      method: 'PUT', path: resourcePath(t, meta?.namespace, name, subresource), body: obj, what: `update ${t.kind} ${name}`,
    });
  }

  patch<T extends object>(t: ResourceType, name: string, patch: unknown, opts: { namespace?: string; type?: PatchType; subresource?: string } = {}): Promise<T> {
    const type = opts.type ?? 'merge';
    return kubeRequest<T>(this.kubeConfig, {
      method: 'PATCH', path: resourcePath(t, opts.namespace, name, opts.subresource), body: patch, contentType: patchContentTypes[type],
      what: `patch ${t.kind} ${name}`,
    });
  }

  delete(t: ResourceType, name: string, opts: { namespace?: string; propagationPolicy?: 'Foreground' | 'Background' | 'Orphan'; uid?: string } = {}): Promise<unknown> {
    const body = {
      kind: 'DeleteOptions', apiVersion: 'v1',
      ...(opts.propagationPolicy ? { propagationPolicy: opts.propagationPolicy } : {}),
      ...(opts.uid ? { preconditions: { uid: opts.uid } } : {}),
    };
    return kubeRequest(this.kubeConfig, { method: 'DELETE', path: resourcePath(t, opts.namespace, name), body, what: `delete ${t.kind} ${name}` });
  }
}
