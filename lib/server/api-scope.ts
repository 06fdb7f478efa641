// Whether an API an operator owns is namespaced, from the cluster's discovery document, which
// every signed-in person may read (unlike the CRD itself). Read once per group-version for one
// request: an operator's APIs often share a group.
import type { KubeClient } from '../k8s/client';
import type { ResourceType } from '../olm/resources/common';

export interface OwnedApiRef {
  group: string;
  version: string;
  plural: string;
  kind: string;
}

export type OperandTypeOf = (api: OwnedApiRef) => Promise<ResourceType>;

/**
 * The resource type of each owned API as the cluster serves it. A group-version the cluster does
 * not serve is taken as namespaced: reading it then fails as not served, which is what the
 * person needs to hear.
 */
export function operandTypes(client: KubeClient): OperandTypeOf {
  const documents = new Map<string, ReturnType<KubeClient['discover']>>();
  return async (api) => {
    const key = `${api.group}/${api.version}`;
    let doc = documents.get(key);
    if (!doc) {
      doc = client.discover(api.group, api.version);
      documents.set(key, doc);
    }
    const served = (await doc)?.find((r) => r.name === api.plural);
    return {
      group: api.group,
      version: api.version,
      plural: api.plural,
      kind: api.kind,
      namespaced: served?.namespaced ?? true,
    };
  };
}
