// Reading a cluster's OLM v0 lists for the fleet pages as a person who may not list them in every
// namespace (a namespace admin): the cluster-wide list first, and where the cluster refuses it,
// the same fallback as the single-cluster pages, per cluster: the namespaces the person may use
// there (lib/server/my-namespaces.ts: projects, every namespace, or the names the page offers,
// each checked by an access review on that cluster), each read on its own (skipping one that refuses,
// as lib/server/visible-list.ts does). The answer says which namespaces were read, so the page can say
// the list is of those only.
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import type { ResourceType } from '../../olm/resources/common';
import { myNamespaces } from '../my-namespaces';

export interface NamespacedReader {
  /** Every item the person may read: cluster-wide, or from each namespace they may use there. */
  list<T extends object>(type: ResourceType, opts?: { labelSelector?: string }): Promise<T[]>;
  /** The namespaces read one by one, where a cluster-wide list was refused; undefined when none was. */
  readIn(): string[] | undefined;
}

/** A reader for one cluster; `candidates` are the names the page offers for a person who may not list namespaces. */
export function namespacedReader(client: KubeClient, candidates: readonly string[]): NamespacedReader {
  let mine: Promise<string[]> | undefined;
  let read: string[] | undefined;
  const namespaces = () => (mine ??= myNamespaces(client, candidates).then((a) => a.namespaces));
  return {
    async list<T extends object>(type: ResourceType, opts: { labelSelector?: string } = {}): Promise<T[]> {
      try {
        return (await client.listAll<T>(type, opts)).items;
      } catch (err) {
        if (!isKubeError(err, 403)) throw err;
      }
      const names = await namespaces();
      read = names;
      // Each namespace as visible-list.ts reads it: one that refuses the person is skipped.
      const each = await Promise.all(
        names.map(async (namespace) => {
          try {
            return (await client.listAll<T>(type, { ...opts, namespace })).items;
          } catch (err) {
            if (!isKubeError(err, 403)) throw err;
            return [];
          }
        }),
      );
      return each.flat();
    },
    readIn: () => read,
  };
}
