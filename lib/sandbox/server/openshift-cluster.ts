// What the sandbox's OpenShift flavour has of OpenShift's own cluster objects: the ClusterVersion
// `version` (config.openshift.io/v1, as openshift/api types it) saying which release the cluster
// runs and which updates its channel offers, so consoles can ask what OpenShift would say; and the
// Proxy `cluster`, whose status OLM passes to every operator as HTTP(S)_PROXY / NO_PROXY (empty
// here, as on a cluster without a proxy: set its status to see OLM inject it); and the OperatorHub
// `cluster`, whose switches the marketplace operator (../olm/marketplace-operator.ts) acts on.
import { ApiStatusError } from './http-util';
import type { ApiServer } from './api-server';
import type { KObject } from '../store/types';

/** The release the flavour reports, and the update its channel offers. */
export const SANDBOX_OPENSHIFT = { version: '4.18.12', update: '4.18.13', channel: 'stable-4.18' } as const;

const release = (v: string) =>
  `quay.io/openshift-release-dev/ocp-release@sha256:${Buffer.from(v).toString('hex').padEnd(64, '0').slice(0, 64)}`;

export const CLUSTER_VERSION_CRD: KObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'clusterversions.config.openshift.io' },
  spec: {
    group: 'config.openshift.io',
    scope: 'Cluster',
    names: {
      plural: 'clusterversions',
      singular: 'clusterversion',
      kind: 'ClusterVersion',
      listKind: 'ClusterVersionList',
    },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        additionalPrinterColumns: [
          { name: 'Version', type: 'string', jsonPath: '.status.history[?(@.state=="Completed")].version' },
          { name: 'Available', type: 'string', jsonPath: '.status.conditions[?(@.type=="Available")].status' },
          { name: 'Progressing', type: 'string', jsonPath: '.status.conditions[?(@.type=="Progressing")].status' },
          { name: 'Since', type: 'date', jsonPath: '.status.conditions[?(@.type=="Progressing")].lastTransitionTime' },
          { name: 'Status', type: 'string', jsonPath: '.status.conditions[?(@.type=="Progressing")].message' },
        ],
      },
    ],
  },
};

/** Creates ClusterVersion `version` with its status, unless it exists. */
export function ensureClusterVersion(api: ApiServer): void {
  const r = api.resources.find('config.openshift.io', 'v1', 'clusterversions');
  if (!r || api.storeGet(r, undefined, 'version')) return;
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const { version, update, channel } = SANDBOX_OPENSHIFT;
  let created: KObject;
  try {
    created = api.createObject(r, {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterVersion',
      metadata: { name: 'version' },
      spec: { channel, clusterID: '00000000-0000-4000-8000-000000000418' },
    });
  } catch (err) {
    if (err instanceof ApiStatusError && err.code === 409) return;
    throw err;
  }
  api.updateObject(
    r,
    {
      ...created,
      status: {
        desired: { version, image: release(version), channels: [channel, 'fast-4.18', 'stable-4.19'] },
        history: [
          {
            state: 'Completed',
            version,
            image: release(version),
            verified: false,
            startedTime: now,
            completionTime: now,
          },
        ],
        observedGeneration: 1,
        versionHash: 'sandbox',
        availableUpdates: [{ version: update, image: release(update), channels: [channel] }],
        conditions: [
          { type: 'Available', status: 'True', lastTransitionTime: now, message: `Done applying ${version}` },
          { type: 'Failing', status: 'False', lastTransitionTime: now },
          { type: 'Progressing', status: 'False', lastTransitionTime: now, message: `Cluster version is ${version}` },
          { type: 'RetrievedUpdates', status: 'True', lastTransitionTime: now },
        ],
      },
    },
    'status',
  );
}

export const PROXY_CRD: KObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'proxies.config.openshift.io' },
  spec: {
    group: 'config.openshift.io',
    scope: 'Cluster',
    names: { plural: 'proxies', singular: 'proxy', kind: 'Proxy', listKind: 'ProxyList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

/** Creates Proxy `cluster` (no proxy, no extra trusted CA), unless it exists. */
export function ensureClusterProxy(api: ApiServer): void {
  const r = api.resources.find('config.openshift.io', 'v1', 'proxies');
  if (!r || api.storeGet(r, undefined, 'cluster')) return;
  try {
    api.createObject(r, {
      apiVersion: 'config.openshift.io/v1',
      kind: 'Proxy',
      metadata: { name: 'cluster' },
      spec: { trustedCA: { name: '' } },
    });
  } catch (err) {
    if (!(err instanceof ApiStatusError && err.code === 409)) throw err;
  }
}

export const OPERATOR_HUB_CRD: KObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'operatorhubs.config.openshift.io' },
  spec: {
    group: 'config.openshift.io',
    scope: 'Cluster',
    names: { plural: 'operatorhubs', singular: 'operatorhub', kind: 'OperatorHub', listKind: 'OperatorHubList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

/** Creates OperatorHub `cluster` with an empty spec (every default source enabled), unless it exists, as OpenShift's release payload does. */
export function ensureOperatorHub(api: ApiServer): void {
  const r = api.resources.find('config.openshift.io', 'v1', 'operatorhubs');
  if (!r || api.storeGet(r, undefined, 'cluster')) return;
  try {
    api.createObject(r, {
      apiVersion: 'config.openshift.io/v1',
      kind: 'OperatorHub',
      metadata: { name: 'cluster' },
      spec: {},
    });
  } catch (err) {
    if (!(err instanceof ApiStatusError && err.code === 409)) throw err;
  }
}
