// The record of live upgrade targets in the cluster: a ConfigMap of the console's namespace,
// read and written with the console's own identity only (never a person's, never the approver's
// if that is another), so that whoever may patch a Subscription cannot make a target live again.
// Every replica reads it where it acts (no cache: an approval must see a cancel made a moment ago
// on another replica), and writes it at the resourceVersion read, merging again on a conflict.
// Its format and bound are lib/server/upgrade-target-record.ts's.
import type { KubeClient } from '../k8s/client';
import { CONFIG_MAP_TYPE } from '../k8s/core-kinds';
import { isKubeError } from '../k8s/errors';
import { ApiError } from './api-error';
import { consoleIdentityClient } from './context';
import { consoleNamespace } from './session-revocation';
import { DEFAULT_TARGET_ENTRIES, normalized, type TargetRecordData } from './upgrade-target-record';
import { TARGET_MAX_AGE_MS } from './upgrade-target-seal';

export const TARGETS_CONFIGMAP = 'olm-console-upgrade-targets';
/** How long a write keeps retrying conflicts with other replicas before it says so. */
const WRITE_DEADLINE_MS = 10_000;

interface ConfigMap {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
  data?: Record<string, string>;
}

export class UpgradeTargetStore {
  constructor(
    private readonly client: KubeClient,
    readonly namespace: string,
    readonly name = TARGETS_CONFIGMAP,
    private readonly entries = DEFAULT_TARGET_ENTRIES,
  ) {}

  private get where() {
    return `the record of live upgrade targets (ConfigMap ${this.namespace}/${this.name})`;
  }

  private async get(): Promise<ConfigMap | undefined> {
    try {
      return await this.client.get<ConfigMap>(CONFIG_MAP_TYPE, this.name, this.namespace);
    } catch (err) {
      if (isKubeError(err, 404)) return undefined;
      throw new ApiError(503, 'ServiceUnavailable', `cannot read ${this.where}: ${(err as Error).message}`);
    }
  }

  async read(): Promise<TargetRecordData> {
    return (await this.get())?.data ?? {};
  }

  /**
   * Applies `change` to the record as the cluster has it and writes the result at the version read;
   * a conflict means another replica wrote meanwhile: read and apply again. Returns the record
   * before and after.
   */
  async change(
    change: (d: TargetRecordData) => TargetRecordData,
  ): Promise<{ before: TargetRecordData; after: TargetRecordData }> {
    const deadline = Date.now() + WRITE_DEADLINE_MS;
    let pause = 20;
    for (;;) {
      const cm = await this.get();
      const before = cm?.data ?? {};
      const after = normalized(change(before), Date.now(), { maxAgeMs: TARGET_MAX_AGE_MS, entries: this.entries });
      if (sameData(before, after)) return { before, after };
      try {
        if (cm) await this.client.replace(CONFIG_MAP_TYPE, { ...cm, data: after });
        else
          await this.client.create(CONFIG_MAP_TYPE, {
            kind: 'ConfigMap',
            metadata: {
              name: this.name,
              namespace: this.namespace,
              labels: { 'app.kubernetes.io/name': 'olm-console' },
            },
            data: after,
          });
        return { before, after };
      } catch (err) {
        // A create that lost to another replica's is a 409 too.
        if (!isKubeError(err, 409) || Date.now() + pause > deadline)
          throw new ApiError(503, 'ServiceUnavailable', `cannot write ${this.where}: ${(err as Error).message}`);
        // Jittered: replicas that collided do not collide again in step.
        await new Promise((r) => setTimeout(r, pause * (0.5 + Math.random())));
        pause = Math.min(pause * 2, 500);
      }
    }
  }
}

function sameData(a: TargetRecordData, b: TargetRecordData): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

// A plain module variable: a route bundle's own copy holds no state (every read goes to the cluster).
let store: UpgradeTargetStore | undefined;

/** The record as this process's console identity reads and writes it, in the console's namespace. */
export function upgradeTargetStore(): UpgradeTargetStore {
  store ??= new UpgradeTargetStore(consoleIdentityClient(), consoleNamespace());
  return store;
}
