// The one place the sandbox's OLM operator reads a stored object as the lib/olm/resources type
// that describes it, rather than a structural `as {…}` at each read. The store's KObject is typed
// only as far as its metadata; these kinds are custom resources, and the API server checks every
// write, a controller's too, against the CRD's schema (crds/olm-schemas.ts: a CSV's spec has its
// displayName and install), so the shape the type states holds. Fields the schema leaves out are
// optional in the types too, and readers keep their defaults. A view is the same object, not a
// copy: writes still go through the API server with the KObject.
import type { ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import type { OLMConfig } from '../../olm/resources/olm-config';
import type { OperatorCondition } from '../../olm/resources/operator-condition';
import type { OperatorGroup } from '../../olm/resources/operator-group';
import type { Subscription } from '../../olm/resources/subscription';
import type { KObject } from '../store/types';

export function csvView(o: KObject): ClusterServiceVersion {
  return o as unknown as ClusterServiceVersion;
}

export function operatorGroupView(o: KObject): OperatorGroup {
  return o as unknown as OperatorGroup;
}

export function operatorConditionView(o: KObject): OperatorCondition {
  return o as unknown as OperatorCondition;
}

export function subscriptionView(o: KObject): Subscription {
  return o as unknown as Subscription;
}

export function olmConfigView(o: KObject): OLMConfig {
  return o as unknown as OLMConfig;
}
