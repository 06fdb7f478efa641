// How one person's read of a bundle image goes: from which references (the cluster's mirror
// rules, mirror-rules.ts), with which credentials (the pull secrets that apply, read as the
// person, pull-secrets.ts), trusting which CAs (the console's, plus the cluster's image
// configuration's for their registries). Without a person (a caller that passes no access),
// nothing of the cluster is read: the image is pulled from where it is named, anonymously.
import type { KubeClient } from '../../k8s/client';
import { readClusterImageConfig } from './cluster-image-config';
import { referenceText, type ImageReference } from './image-reference';
import { pullSources } from './mirror-rules';
import type { PullSettings } from './pull-settings';
import {
  credentialsFor,
  readPullSecrets,
  secretText,
  type BundleCatalog,
  type ChosenCredential,
  type PullSecrets,
} from './pull-secrets';

/** Who reads a bundle, and the catalog it comes from (which names the pull secrets that apply). */
export interface PullAccess {
  /** The person's own client. */
  client: KubeClient;
  catalog?: BundleCatalog;
}

export interface PlannedSource {
  ref: ImageReference;
  mirror: boolean;
  auth?: ChosenCredential;
  /** Why there are no credentials for this source, for a registry that wants some. */
  noAuthWhy: string;
}

export interface PullPlan {
  settings: PullSettings;
  sources: PlannedSource[];
  /** Sentences on what of the cluster's configuration this person could not read. */
  notes: string[];
  /** Keys pulls that may be shared: same sources, same credentials. */
  key: string;
}

function noAuthWhy(ref: ImageReference, secrets: PullSecrets | undefined, settings: PullSettings): string {
  if (!secrets) return 'no pull secret was read (the console reads them only as the person asking)';
  if (secrets.notRead.length)
    return `the pull secrets that may hold its credentials were not read: ${secrets.notRead.join('; ')}`;
  if (!secrets.read.length)
    return `no pull secret applies (the catalog names none${settings.pullSecret ? '' : ', and OLM_CONSOLE_PULL_SECRET is not set'})`;
  return `none of the pull secrets ${secrets.read.map(secretText).join(', ')} holds credentials for ${ref.registry}`;
}

export async function planPull(ref: ImageReference, settings: PullSettings, access?: PullAccess): Promise<PullPlan> {
  if (!access) {
    const why = noAuthWhy(ref, undefined, settings);
    return {
      settings,
      sources: [{ ref, mirror: false, noAuthWhy: why }],
      notes: [],
      key: 'anonymous',
    };
  }
  const cluster = await readClusterImageConfig(access.client);
  const secrets = await readPullSecrets(access.client, access.catalog, settings.pullSecret, cluster.openshift);
  // Each source with each secret that has credentials for it, in turn; anonymously when none has.
  const sources = pullSources(ref, cluster.rules).flatMap((s): PlannedSource[] => {
    const why = noAuthWhy(s.ref, secrets, settings);
    const auths = credentialsFor(s.ref, secrets);
    return auths.length ? auths.map((auth) => ({ ...s, auth, noAuthWhy: why })) : [{ ...s, noAuthWhy: why }];
  });
  const key = JSON.stringify(
    sources.map((s) => [referenceText(s.ref), s.auth ? `${secretText(s.auth.secret)}/${s.auth.secret.uid}` : '']),
  );
  const registryCas = new Map([...(settings.registryCas ?? []), ...cluster.cas]);
  return {
    settings: { ...settings, registryCas },
    sources,
    notes: cluster.notes,
    key,
  };
}
