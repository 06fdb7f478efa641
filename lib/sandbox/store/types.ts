// The contract between the sandbox's object store (lib/sandbox/store) and its HTTP API server
// (lib/sandbox/server). The store knows nothing of HTTP; the server knows nothing of files.
import type { OwnerReference } from '../../olm/resources/common';

/** A Kubernetes object as stored: plain JSON. */
export interface KObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export type { OwnerReference };

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: unknown[];
  [field: string]: unknown;
}

/** Identifies a stored collection: group ("" for core), resource (plural), and its scope. */
export interface ResourceKey {
  group: string;
  /** Storage version; objects are stored and returned at this version. */
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  type: WatchEventType;
  object: KObject;
}

/** Errors the store raises; the server maps `reason`/`code` onto a Kubernetes Status. */
export type StoreErrorReason = 'NotFound' | 'AlreadyExists' | 'Conflict' | 'Gone' | 'Invalid' | 'BadRequest';

export class StoreError extends Error {
  constructor(
    readonly reason: StoreErrorReason,
    readonly code: number,
    message: string,
    /** The Status details the API server sends with it (name, group, kind as the resource's plural). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}
