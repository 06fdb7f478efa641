// The console's Kubernetes client: typed-enough CRUD on any resource type, made with one
// KubeConfig (and so one identity). Errors are KubeErrors carrying the API server's reason.
import type { KubeConfig } from '@kubernetes/client-node';
import { apiVersionOf, type ResourceType } from '../olm/resources/common';
import type { CredentialLease } from './credential-lease';
import { isKubeError } from './errors';
import { kubeRequest, kubeRequestBytes, type Query } from './http';
import { isObjectWeSent, type RetryMode } from './retry';

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
  /** Ends the list, and its retries, when it aborts. */
  signal?: AbortSignal;
}

/** One entry of a group-version's discovery document (`APIResourceList.resources`). */
export interface DiscoveredResource {
  name: string;
  namespaced: boolean;
  kind: string;
  verbs?: string[];
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
  /**
   * `cluster`: the fleet member this client reaches when it is not the home cluster (undefined
   * for home). The console's caches key their entries on it, so nothing one cluster answered is
   * given for another (docs/code/server.md).
   */
  constructor(
    readonly kubeConfig: KubeConfig,
    readonly cluster?: string,
    /**
     * How long whatever outlives the request may keep these credentials (a port-forward does):
     * the person's session, for a client made with their token; absent for the kubeconfig's user.
     */
    readonly lease?: CredentialLease,
  ) {}

  /** `retry: 'none'` for a read polled anyway: the next poll is its retry. */
  get<T extends object>(
    t: ResourceType,
    name: string,
    namespace?: string,
    opts: { retry?: RetryMode } = {},
  ): Promise<T> {
    return kubeRequest<T>(this.kubeConfig, {
      method: 'GET',
      path: resourcePath(t, namespace, name),
      what: `get ${t.kind} ${name}`,
      ...(opts.retry ? { retry: opts.retry } : {}),
    });
  }

  /** A subresource that answers bytes (a PackageManifest's icon). */
  getBytes(
    t: ResourceType,
    name: string,
    namespace: string | undefined,
    subresource: string,
  ): Promise<{ body: Buffer; contentType: string }> {
    return kubeRequestBytes(this.kubeConfig, {
      method: 'GET',
      path: resourcePath(t, namespace, name, subresource),
      what: `get ${t.kind} ${name} ${subresource}`,
    });
  }

  list<T extends object>(t: ResourceType, opts: ListOptions = {}): Promise<KubeList<T>> {
    const query: Query = {
      labelSelector: opts.labelSelector,
      fieldSelector: opts.fieldSelector,
      limit: opts.limit,
      continue: opts.continue,
    };
    return kubeRequest<KubeList<T>>(this.kubeConfig, {
      method: 'GET',
      path: resourcePath(t, opts.namespace),
      query,
      what: `list ${t.plural}`,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
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

  /**
   * Creates an object. Sent again after transient failures when that cannot make a second
   * object (retry.ts): a fixed name, a review, a dry run. When an earlier attempt got no clear
   * answer and the retry is refused as AlreadyExists, the object there is read and returned if
   * it is the one we sent (our earlier attempt made it); otherwise the 409 is passed on.
   */
  async create<T extends object>(
    t: ResourceType,
    obj: T,
    opts: { namespace?: string; dryRun?: boolean } = {},
  ): Promise<T> {
    const meta = (obj as AnyObject).metadata;
    const namespace = opts.namespace ?? meta?.namespace;
    const body = { apiVersion: apiVersionOf(t), kind: t.kind, ...obj };
    // Reviews (SelfSubjectAccessReview…) and dry runs store nothing; generateName could make two.
    const retry: RetryMode =
      opts.dryRun || t.plural.endsWith('reviews') ? 'idempotent' : meta?.name ? 'create' : 'unsafe';
    try {
      return await kubeRequest<T>(this.kubeConfig, {
        method: 'POST',
        path: resourcePath(t, namespace),
        body,
        query: { dryRun: opts.dryRun ? 'All' : undefined },
        retry,
        what: `create ${t.kind} ${meta?.name ?? meta?.generateName ?? ''}`.trim(),
      });
    } catch (err) {
      if (
        retry !== 'create' ||
        !isKubeError(err, 409) ||
        err.reason !== 'AlreadyExists' ||
        !err.earlierAttemptUncertain
      )
        throw err;
      let found: T;
      try {
        found = await this.get<T>(t, meta!.name!, namespace);
      } catch (getErr) {
        err.message = `${err.message} (an earlier attempt of this create got no clear answer, and reading the object to tell whether it made it failed: ${(getErr as Error).message})`;
        throw err;
      }
      if (isObjectWeSent(body, found)) return found;
      err.message = `${err.message} (an earlier attempt of this create got no clear answer; the object there is not the one sent)`;
      throw err;
    }
  }

  /**
   * Updates an object at the resourceVersion it carries. Sent again after transient failures (a
   * second copy can never apply twice: it gets 409 Conflict). When that 409 follows an attempt
   * that got no clear answer, the object is read: if it now holds what we sent, our earlier
   * attempt was applied and the update is done; otherwise the conflict is passed on.
   */
  async replace<T extends object>(t: ResourceType, obj: T, subresource?: string): Promise<T> {
    const meta = (obj as AnyObject).metadata;
    const name = meta?.name ?? '';
    try {
      return await kubeRequest<T>(this.kubeConfig, {
        method: 'PUT',
        path: resourcePath(t, meta?.namespace, name, subresource),
        body: obj,
        what: `update ${t.kind} ${name}`,
      });
    } catch (err) {
      if (subresource || !isKubeError(err, 409) || err.reason !== 'Conflict' || !err.earlierAttemptUncertain) throw err;
      const found = await this.get<T>(t, name, meta?.namespace).catch(() => undefined);
      if (found && isObjectWeSent(obj, found)) return found;
      throw err;
    }
  }

  /**
   * Whether the cluster serves a resource, by its group-version's discovery document: how an
   * optional API (OpenShift's, say) is told apart from an object that does not exist, both 404s.
   */
  async serves(t: ResourceType): Promise<boolean> {
    return ((await this.discover(t.group, t.version)) ?? []).some((r) => r.name === t.plural);
  }

  /** The resources a group-version serves (its discovery document), or undefined where it is not served. */
  async discover(group: string, version: string): Promise<DiscoveredResource[] | undefined> {
    const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
    try {
      const list = await kubeRequest<{ resources?: DiscoveredResource[] }>(this.kubeConfig, {
        method: 'GET',
        path,
        what: `discover ${group || 'core'}/${version}`,
      });
      return list.resources ?? [];
    } catch (err) {
      if (isKubeError(err, 404)) return undefined;
      throw err;
    }
  }

  patch<T extends object>(
    t: ResourceType,
    name: string,
    patch: unknown,
    opts: { namespace?: string; type?: PatchType; subresource?: string } = {},
  ): Promise<T> {
    const type = opts.type ?? 'merge';
    return kubeRequest<T>(this.kubeConfig, {
      method: 'PATCH',
      path: resourcePath(t, opts.namespace, name, opts.subresource),
      body: patch,
      contentType: patchContentTypes[type],
      what: `patch ${t.kind} ${name}`,
    });
  }

  /** Deletes an object; a 404 after an attempt that got no clear answer means that attempt deleted it. */
  async delete(
    t: ResourceType,
    name: string,
    opts: {
      namespace?: string;
      propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
      uid?: string;
      resourceVersion?: string;
    } = {},
  ): Promise<unknown> {
    const preconditions = {
      ...(opts.uid ? { uid: opts.uid } : {}),
      ...(opts.resourceVersion ? { resourceVersion: opts.resourceVersion } : {}),
    };
    const body = {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      ...(opts.propagationPolicy ? { propagationPolicy: opts.propagationPolicy } : {}),
      ...(Object.keys(preconditions).length ? { preconditions } : {}),
    };
    try {
      return await kubeRequest(this.kubeConfig, {
        method: 'DELETE',
        path: resourcePath(t, opts.namespace, name),
        body,
        what: `delete ${t.kind} ${name}`,
      });
    } catch (err) {
      if (isKubeError(err, 404) && err.earlierAttemptUncertain)
        return { kind: 'Status', apiVersion: 'v1', status: 'Success', details: { name, kind: t.plural } };
      throw err;
    }
  }
}
