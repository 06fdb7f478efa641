// OLM v0 unpacking a bundle its catalog gives by image only (OLM v0.38.0 bundle_unpacker.go and
// catalog/operator.go unpackBundles): the catalog `unpack` is image-only on both clusters (the real
// one's `--image-catalog`, the sandbox's `imageCatalogs`), each with the images in its own
// registry. What a client sees is compared: the Subscription's conditions while unpacking (from a
// watch, so a short unpack is seen too) and after, the plan's bundleLookups, and the unpack
// ConfigMap, Job and pod in the catalog's namespace, named by the hash of the image each cluster's
// catalog names. Image references and hashes differ between the clusters; whether each is what
// OLM derives from the other is compared instead.
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { load } from 'js-yaml';
import { readWatch } from '../read-watch';
import type { Check } from '../run-checks';
import type { Target } from '../target';
import { CATALOG_NS, conditions, list, must, namespace, operatorGroup, settled, subscribe, until } from './olm-read';

/** The image-only catalog's folder name (its CatalogSource's name on both clusters) and package. */
export const UNPACK_CATALOG = 'unpack';
export const UNPACK_PACKAGE = 'unpacked';

type Cond = { type: string; status: string; reason?: string };

/**
 * The Subscription conditions (type, status, reason) a watch on the namespace's Subscriptions
 * sees before the first one names its InstallPlan, in the order first seen.
 */
async function conditionsBeforePlan(t: Target, ns: string, timeoutMs: number): Promise<string[]> {
  const seen: string[] = [];
  await readWatch<{ object?: { status?: { conditions?: Cond[]; installPlanRef?: unknown } } }>(
    t,
    `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions?watch=1`,
    (e) => {
      const st = e.object?.status;
      if (st?.installPlanRef) return true;
      for (const c of st?.conditions ?? []) {
        const k = `${c.type}=${c.status} (${c.reason ?? ''})`;
        if (!seen.includes(k)) seen.push(k);
      }
      return false;
    },
    timeoutMs,
    () => seen.length > 0,
  );
  return seen;
}

/** The kind and name of the first document of a `gzip+base64` value, as the API shows binaryData. */
function unpackedObject(value: string): string {
  try {
    const gz = Buffer.from(Buffer.from(value, 'base64').toString('latin1'), 'base64');
    const text = gunzipSync(gz).toString('utf8');
    const doc = load(text.split(/^---\s*$/m).find((d) => d.trim() !== '') ?? '') as {
      kind?: string;
      metadata?: { name?: string };
    };
    return `${doc?.kind}/${doc?.metadata?.name}`;
  } catch (err) {
    return `not gzip+base64 YAML or JSON: ${(err as Error).message}`;
  }
}

const sortedKeys = (o: unknown) => Object.keys((o ?? {}) as object).sort();
const owners = (o: { metadata: { ownerReferences?: unknown[] } }) =>
  ((o.metadata.ownerReferences ?? []) as { kind: string; controller?: boolean; blockOwnerDeletion?: boolean }[]).map(
    (r) => ({ kind: r.kind, controller: r.controller ?? null, blockOwnerDeletion: r.blockOwnerDeletion ?? null }),
  );

export const unpackChecks: Check[] = [
  {
    id: 'olm/unpack: an image-only bundle is unpacked in a Job before its plan is written',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-unpack';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      const before = conditionsBeforePlan(t, ns, 180_000);
      await subscribe(t, ns, UNPACK_PACKAGE, { name: UNPACK_PACKAGE, channel: 'stable', source: UNPACK_CATALOG });
      const during = await before;
      const plan = await until(t, 'the InstallPlan Complete', async () => {
        const p = (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`))[0];
        return p?.status?.phase === 'Complete' ? p : undefined;
      });
      // Real OLM clears BundleUnpacking on a later pass than the one that writes the plan; under
      // load that pass came after the quiet spell below (CI, 2026-11-30). What is compared is the
      // end state, so each cluster is given the time to reach it; one that never clears it fails.
      await until(t, 'BundleUnpacking cleared from the Subscription', async () => {
        const s = (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions`))[0];
        return s && !conditions(s).some((c) => c.type === 'BundleUnpacking') ? s : undefined;
      });
      await settled(t, ns, 6_000);
      const sub = (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions`))[0];
      const lookups = (plan.status?.bundleLookups ?? []) as {
        path: string;
        identifier: string;
        catalogSourceRef?: { name?: string; namespace?: string };
        conditions?: unknown[];
      }[];
      const image = lookups[0]?.path ?? '';
      // OLM's name for the unpack objects: sha256 of the image reference, its last hex digit dropped.
      const name = createHash('sha256').update(image).digest('hex').slice(0, 63);
      const cm = await must(t, 'GET', `/api/v1/namespaces/${CATALOG_NS}/configmaps/${name}`).catch(() => undefined);
      const job = await must(t, 'GET', `/apis/batch/v1/namespaces/${CATALOG_NS}/jobs/${name}`).catch(() => undefined);
      const pods = (await list(t, `/api/v1/namespaces/${CATALOG_NS}/pods?labelSelector=job-name%3D${name}`)).map(
        (p) => ({
          phase: p.status?.phase,
          unpackRef: p.metadata.labels?.['operatorframework.io/bundle-unpack-ref'] === name,
        }),
      );
      const annotations = cm?.metadata.annotations ?? {};
      const jobSpec = (job?.spec ?? {}) as { activeDeadlineSeconds?: number; backoffLimit?: number };
      return {
        // A set: which controller writes first (catalog health or unpacking) is each cluster's timing.
        subscriptionWhileUnpacking: [...during].sort(),
        subscriptionAfter: conditions(sub).map((c) => `${c.type}=${c.status} (${c.reason})`),
        planPhase: plan.status?.phase,
        bundleLookups: lookups.map((l) => ({
          keys: sortedKeys(l),
          identifier: l.identifier,
          catalogSourceRef: `${l.catalogSourceRef?.namespace}/${l.catalogSourceRef?.name}`,
          conditions: l.conditions ?? 'omitted',
          byDigest: /@sha256:[0-9a-f]{64}$/.test(l.path),
        })),
        configMap: cm && {
          labels: cm.metadata.labels,
          owners: owners(cm),
          annotationKeys: sortedKeys(annotations),
          sourceImageIsTheLookupPath: annotations['olm.sourceImage'] === image,
          contentEncoding: annotations['olm.contentEncoding'],
          package: annotations['operators.operatorframework.io.bundle.package.v1'],
          mediaType: annotations['operators.operatorframework.io.bundle.mediatype.v1'],
          // The files' names are the image builder's (each cluster builds its own images): what OLM
          // reads of them is compared, the kind and name of the first document of each.
          files: Object.values((cm.binaryData ?? {}) as Record<string, string>)
            .map((v) => unpackedObject(v))
            .sort(),
          dataKeys: sortedKeys(cm.data),
        },
        job: job && {
          labels: Object.fromEntries(
            Object.entries(job.metadata.labels ?? {}).map(([k, v]) => [k, v === name ? '<image hash>' : v]),
          ),
          owners: owners(job),
          complete: ((job.status?.conditions ?? []) as Cond[]).some(
            (c) => c.type === 'Complete' && c.status === 'True',
          ),
          activeDeadlineSeconds: jobSpec.activeDeadlineSeconds,
          backoffLimit: jobSpec.backoffLimit,
        },
        pods,
      };
    },
  },
];
