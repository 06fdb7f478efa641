// `/api/operators/<ns>/<csv>/instances…`: the operands of an installed operator. Types only.
import type { Condition } from '../olm/resources/common';
import type { DescriptorRow, OperandState } from '../olm/resources/descriptors';

export interface OperandApi {
  group: string;
  version: string;
  plural: string;
  kind: string;
  /** False for a cluster-scoped API: its instances have no namespace. */
  namespaced: boolean;
  displayName: string;
  description?: string;
}

export interface OperandRow {
  name: string;
  namespace?: string;
  createdAt?: string;
  state: OperandState;
  /** Set once a delete was asked; finalizers still hold it. */
  deleting?: { since: string; finalizers: string[] };
}

export interface OperandList {
  apis: (OperandApi & { items: OperandRow[]; total: number; problem?: string })[];
  /** Where the console looked: every namespace, or those the person may list. */
  scope: string;
}

export interface OperandDetails {
  api: OperandApi;
  object: Record<string, unknown> & {
    metadata?: {
      name?: string;
      namespace?: string;
      finalizers?: string[];
      deletionTimestamp?: string;
      creationTimestamp?: string;
    };
  };
  state: OperandState;
  conditions: Condition[];
  spec: DescriptorRow[];
  status: DescriptorRow[];
  events: { type?: string; reason?: string; message?: string; count?: number; lastTimestamp?: string }[];
  canDelete: { allowed: boolean; reason?: string };
}
