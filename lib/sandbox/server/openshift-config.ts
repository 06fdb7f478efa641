// More of OpenShift's cluster singletons for the sandbox's OpenShift flavour, the ones install
// options read (openshift/api's types): Infrastructure `cluster` (the platform, AWS here),
// Authentication `cluster` (no service account issuer), CloudCredential `cluster` (the default
// credentials mode) and the console operator's Console `cluster` (no plugins enabled). As made,
// the cluster is not in short-lived-token mode; set CloudCredential's spec.credentialsMode to
// Manual and Authentication's spec.serviceAccountIssuer to a URL to switch it on, as a cluster
// installed for AWS STS has them. Nothing acts on them: they are read, and edited by people.
import { ApiStatusError } from './http-util';
import type { ApiServer } from './api-server';
import type { KObject } from '../store/types';

function clusterCrd(group: string, plural: string, kind: string): KObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Cluster',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
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
}

export const OPENSHIFT_CONFIG_CRDS: KObject[] = [
  clusterCrd('config.openshift.io', 'infrastructures', 'Infrastructure'),
  clusterCrd('config.openshift.io', 'authentications', 'Authentication'),
  clusterCrd('operator.openshift.io', 'cloudcredentials', 'CloudCredential'),
  clusterCrd('operator.openshift.io', 'consoles', 'Console'),
];

/** The sandbox's platform: what an installer-provisioned AWS cluster reports. */
export const SANDBOX_PLATFORM = { type: 'AWS', region: 'us-east-1' } as const;

function ensureOne(
  api: ApiServer,
  group: string,
  plural: string,
  obj: KObject,
  status?: Record<string, unknown>,
): void {
  const r = api.resources.find(group, 'v1', plural);
  if (!r || api.storeGet(r, undefined, obj.metadata.name ?? '')) return;
  let created: KObject;
  try {
    created = api.createObject(r, obj);
  } catch (err) {
    if (err instanceof ApiStatusError && err.code === 409) return;
    throw err;
  }
  if (status) api.updateObject(r, { ...created, status }, 'status');
}

/** Creates the four singletons, each unless it exists (a data file keeps people's edits). */
export function ensureOpenShiftConfig(api: ApiServer): void {
  ensureOne(
    api,
    'config.openshift.io',
    'infrastructures',
    {
      apiVersion: 'config.openshift.io/v1',
      kind: 'Infrastructure',
      metadata: { name: 'cluster' },
      spec: { platformSpec: { type: SANDBOX_PLATFORM.type, aws: {} } },
    },
    {
      infrastructureName: 'sandbox-7x2kq',
      // `platform` is deprecated in favour of platformStatus.type; both are written, as OpenShift does.
      platform: SANDBOX_PLATFORM.type,
      platformStatus: { type: SANDBOX_PLATFORM.type, aws: { region: SANDBOX_PLATFORM.region } },
      controlPlaneTopology: 'HighlyAvailable',
      infrastructureTopology: 'HighlyAvailable',
    },
  );
  ensureOne(api, 'config.openshift.io', 'authentications', {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Authentication',
    metadata: { name: 'cluster' },
    spec: { type: '', serviceAccountIssuer: '' },
  });
  ensureOne(api, 'operator.openshift.io', 'cloudcredentials', {
    apiVersion: 'operator.openshift.io/v1',
    kind: 'CloudCredential',
    metadata: { name: 'cluster' },
    spec: { credentialsMode: '', managementState: 'Managed' },
  });
  ensureOne(api, 'operator.openshift.io', 'consoles', {
    apiVersion: 'operator.openshift.io/v1',
    kind: 'Console',
    metadata: { name: 'cluster' },
    spec: { managementState: 'Managed' },
  });
}
