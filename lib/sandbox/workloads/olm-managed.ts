// The Deployments the emulations of OLM v0 and v1 write and report themselves (their status
// after a delay, their spec compared with what they wrote): the workload controllers and
// defaults leave them alone. OLM v0 labels its Deployments with `olm.owner`, OLM v1 with its
// owner labels.
import type { KObject } from '../store/types';

export function olmManaged(o: KObject): boolean {
  const l = o.metadata.labels ?? {};
  return 'olm.owner' in l || 'olm.operatorframework.io/owner-name' in l;
}
