// The wizard's choices and the request body they make, as pure functions: the plan preview, the
// install and a shared link all send exactly this body. The approval the Subscription really gets
// (a non-latest version or OpenShift's short-lived cloud tokens force Manual) is decided once, by
// the planner in lib/olm/install/plan.ts; the body carries the person's own choice.
import type { InstallModeType } from '@/lib/olm/resources/cluster-service-version';
import type { OpenShiftOptionsView } from '@/lib/olm/install/openshift-options';
import type { SubscriptionConfig } from '@/lib/olm/resources/subscription-config';
import { openShiftBody, type OpenShiftChoice } from './openshift-option-fields';

export type Approval = 'Automatic' | 'Manual';

export interface InstallChoices {
  catalog: { namespace: string; name: string };
  package: string;
  channel: string;
  /** The CSV name of the chosen version. */
  version: string;
  namespace: string;
  installMode: InstallModeType;
  /** The namespaces picked to watch; only SingleNamespace and MultiNamespace send them. */
  watched: string[];
  approval: Approval;
  /** Where the person sees the catalog, when they cannot read its namespace. */
  viewerNamespace?: string;
  /** spec.config, only once its form has no problem left. */
  config?: SubscriptionConfig;
  serviceAccount?: { name: string; grant: boolean };
  openshift: OpenShiftChoice;
}

/** The body `/api/install/plan` and `/api/install` take (lib/server/install.ts InstallBody). */
export interface InstallRequestBody {
  catalog: { namespace: string; name: string };
  package: string;
  channel: string;
  version: string;
  namespace: string;
  installMode: InstallModeType;
  targetNamespaces?: string[];
  approval: Approval;
  viewerNamespace?: string;
  config?: SubscriptionConfig;
  serviceAccount?: { name: string; grant: boolean };
  [openshift: string]: unknown;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function namespaceNameOk(name: string): boolean {
  return DNS_LABEL.test(name) && name.length <= 63;
}

export function serviceAccountNameOk(name: string): boolean {
  return DNS_SUBDOMAIN.test(name) && name.length <= 253;
}

/**
 * The request for the choices, given the OpenShift options the last plan offered (their fields
 * are sent only for options that apply). Undefined while the choices cannot be planned: an
 * install namespace that is no namespace name.
 */
export function installRequest(c: InstallChoices, view?: OpenShiftOptionsView): InstallRequestBody | undefined {
  if (!namespaceNameOk(c.namespace)) return undefined;
  const watches = c.installMode === 'SingleNamespace' || c.installMode === 'MultiNamespace';
  const account = c.serviceAccount && serviceAccountNameOk(c.serviceAccount.name) ? c.serviceAccount : undefined;
  return {
    catalog: c.catalog,
    package: c.package,
    channel: c.channel,
    version: c.version,
    namespace: c.namespace,
    installMode: c.installMode,
    ...(watches ? { targetNamespaces: c.watched } : {}),
    approval: c.approval,
    ...(c.viewerNamespace ? { viewerNamespace: c.viewerNamespace } : {}),
    ...(c.config && Object.keys(c.config).length ? { config: c.config } : {}),
    ...(account ? { serviceAccount: account } : {}),
    ...openShiftBody(view, c.openshift),
  };
}
