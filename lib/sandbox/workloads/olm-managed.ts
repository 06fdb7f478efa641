// The objects the emulations of OLM v0 and v1 write and watch themselves (a Deployment's status
// reported after a delay, a spec compared with what they wrote): the workload controllers and
// defaults leave them alone. OLM v0 labels its Deployments with `olm.owner`; OLM v1's applier
// marks what it writes with its owner labels and Helm's release annotation.
import type { KObject } from '../store/types';

export function olmManaged(o: KObject): boolean {
  const l = o.metadata.labels ?? {};
  const a = o.metadata.annotations ?? {};
  return 'olm.owner' in l || 'olm.operatorframework.io/owner-name' in l || 'meta.helm.sh/release-name' in a;
}
