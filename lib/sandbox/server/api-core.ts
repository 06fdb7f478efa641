// What the API server's parts share: the store, the served resources, the hooks the OLM
// emulation attaches to, RBAC, and the writes every client and controller goes through.
// api-server.ts implements it; the handlers (reads, writes, watch, reviews) and the garbage
// collector are given it rather than the whole server.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RbacSource, RequestAttributes, UserInfo } from '../auth/rbac';
import type { Store } from '../store/store';
import type { KObject, WatchEvent } from '../store/types';
import type { FaultAnswer } from './fault-answers';
import type { ForwardTarget } from './port-forward';
import type { ResourceTable, ServedResource } from './resources';

/** Hooks the OLM emulation (part 2) and fault injection attach to. */
export interface ApiHooks {
  /** Called after every committed change, with the resource it belongs to. */
  onChange?: (r: ServedResource, e: WatchEvent) => void;
  /** Return how to fail the request (fault injection), or undefined. */
  fault?: (req: IncomingMessage) => FaultAnswer | undefined;
  /** Extra latency (fault injection). */
  delayMs?: () => number;
  /**
   * Whether an aggregated API group is registered but its server is not available (fault
   * injection): its requests are answered as kube-aggregator answers them, after authentication
   * and authorization, with a plain-text 503 `service unavailable` (handler_proxy.go).
   */
  unavailableGroup?: (group: string) => boolean;
  /** Sandbox-only paths under /sandbox/ (fault control), for cluster-admins. */
  sandboxPath?: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void>;
  /**
   * Admission of a client's create, update or patch (controllers writing through the Store are
   * not admitted): throw an ApiStatusError to refuse. `may` asks the RBAC authorizer about the user.
   */
  admit?: (a: {
    resource: ServedResource;
    user: UserInfo;
    object: KObject;
    old?: KObject;
    may: (attrs: RequestAttributes) => boolean;
  }) => void;
  /** Where a pod's container port listens, for pods/portforward; undefined when the pod runs nothing. */
  portForward?: (namespace: string, pod: string, port: number) => ForwardTarget | undefined;
}

export interface DeleteOptions {
  propagationPolicy?: string;
  uid?: string;
  resourceVersion?: string;
  dryRun?: boolean;
}

export interface ApiCore {
  readonly store: Store;
  readonly resources: ResourceTable;
  readonly hooks: ApiHooks;
  readonly rbac: RbacSource;
  createObject(r: ServedResource, o: KObject, dryRun?: boolean, version?: string): KObject;
  updateObject(r: ServedResource, o: KObject, subresource?: string, dryRun?: boolean, version?: string): KObject;
  deleteObject(r: ServedResource, namespace: string | undefined, name: string, opts?: DeleteOptions): KObject;
  /** Re-reads the CRDs and serves what they define. */
  syncCrds(): void;
  /** One pass of the garbage collector and the namespace and CRD finalizers. */
  sweep(): void;
}
