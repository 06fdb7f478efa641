// What keeps Approvals across clusters live: on each cluster, one watch of InstallPlans and one of
// ClusterExtensions, shared by every page the same person has open on that cluster (two tabs, or
// a tab reconnecting, hold one pair, not two), acting with the person's own token. The page does
// not get the objects: it is told "this cluster's approvals changed" and reads that cluster's row
// again through the ordinary route, so what it shows is always the route's answer, and the
// person's cached answers on that cluster are dropped first so the read is a new one. Only
// changes that can change the row count: a plan appearing, going, or changing phase, approval or
// CSVs; an extension appearing, going, or changing the version it asks for or runs (its conditions
// churn on every reconcile and would make a read for nothing). Bounded: at most `perPerson`
// clusters watched per person (past that a cluster is "unwatched" and the page reads it on a
// timer), and a watch ends `lingerMs` after the last page listening to it leaves.
import type { KubeObject } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { startInformer, objectKey, type Informer } from '../../k8s/informer';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../../olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../olm/resources/subscription';
import type { ResourceType } from '../../olm/resources/common';
import { errorBody } from '../api-error';
import { forgetCluster } from './across';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '../olm-v1/resources';
import { clusterCacheKey, type FleetMember } from './members';
import type { FleetPerson } from './person';

/**
 * `watching`: every change reaches the page. `retrying`: the cluster dropped the watch and it is
 * being made again (changes meanwhile arrive when it is back). `refused`: the cluster will not let
 * the person watch (they may read namespace by namespace only, or their token is not accepted
 * there). `unwatched`: the person already holds as many watched clusters as one may.
 */
export type FleetWatchState = 'watching' | 'retrying' | 'refused' | 'unwatched';

export interface FleetWatchNews {
  cluster: string;
  /** `state`: the watch's state changed (or is told to a new listener); `change`: the row changed. */
  type: 'state' | 'change';
  state: FleetWatchState;
  /**
   * Which changes the page has been told of: the watch's identity and its count of changes. A page
   * that knew another mark for this cluster (it reconnected, and a change came while it was away,
   * or the watch was made anew) reads the row again.
   */
  mark: string;
  /** Set when this watch's first list is newer than an answer the person was given: read again. */
  stale?: boolean;
  message?: string;
}

export type FleetWatchListener = (news: FleetWatchNews) => void;

interface Kind<T> {
  type: ResourceType;
  /** What of the object can change the approvals row. */
  signature: (o: T) => string;
  /** Not served on every cluster (either OLM may be absent): a 404 means "nothing to watch here". */
  optional: boolean;
  /**
   * A person who may not list them cluster-wide is shown none of them on the row (a note says
   * so), so none of their changes can change it: a 403 means "nothing to watch for this person".
   * InstallPlans are not so: they are then read namespace by namespace, and the cluster is polled.
   */
  hiddenWhenForbidden: boolean;
}

const PLANS: Kind<InstallPlan> = {
  type: INSTALL_PLAN_TYPE,
  signature: (p) =>
    [p.status?.phase ?? '', p.spec.approved, p.spec.approval, (p.spec.clusterServiceVersionNames ?? []).join(',')].join(
      '|',
    ),
  optional: true,
  hiddenWhenForbidden: false,
};

// OLM writes a plan before the Subscriptions that asked for it name it (the plan, its status, then
// each Subscription's installPlanRef and state): a row read on the plan's own events may show it
// "named by no Subscription yet" and nothing about the plan changes after. So the Subscriptions'
// part in the row is watched too.
const SUBSCRIPTIONS: Kind<Subscription> = {
  type: SUBSCRIPTION_TYPE,
  signature: (s) =>
    [
      s.status?.installPlanRef?.name ?? '',
      s.status?.state ?? '',
      s.status?.currentCSV ?? '',
      s.status?.installedCSV ?? '',
    ].join('|'),
  optional: true,
  hiddenWhenForbidden: false,
};

const EXTENSIONS: Kind<ClusterExtension> = {
  type: CLUSTER_EXTENSION_TYPE,
  signature: (ce) => {
    const c = ce.spec?.source?.catalog;
    const b = ce.status?.install?.bundle;
    return JSON.stringify([c?.packageName, c?.version, c?.channels, c?.upgradeConstraintPolicy, b?.name, b?.version]);
  },
  optional: true,
  hiddenWhenForbidden: true,
};

const KINDS = [PLANS, SUBSCRIPTIONS, EXTENSIONS] as unknown as Kind<KubeObject>[];

export interface ApprovalWatchOptions {
  perPerson: number;
  lingerMs: number;
  /** Changes within this many ms are told once. */
  coalesceMs: number;
  /**
   * Told when a cluster's row changed for a person: drop their cached answers there (with
   * `before`, only those begun before it); says whether any was dropped.
   */
  forget: (person: FleetPerson, cluster: string, before?: number) => boolean;
}

let nextId = 0;

class Watched {
  readonly listeners = new Set<FleetWatchListener>();
  readonly id = `${Date.now().toString(36)}-${(nextId++).toString(36)}`;
  private readonly informers: Informer<KubeObject>[] = [];
  private readonly pending = new Set<Kind<KubeObject>>();
  private changes = 0;
  private stopped = 0;
  private state: FleetWatchState = 'retrying';
  private message?: string;
  private stale = false;
  private startedAt = 0;
  private coalesce?: ReturnType<typeof setTimeout>;
  linger?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly person: FleetPerson,
    private readonly member: FleetMember,
    private readonly opts: ApprovalWatchOptions,
    /** Started by a read of the row: that read, begun with the watch, is what the page shows. */
    private readonly primed: boolean,
  ) {}

  start(): void {
    this.startedAt = Date.now();
    let client;
    try {
      client = this.person.client(this.member);
    } catch (err) {
      this.refuse(errorBody(err).error.message);
      return;
    }
    for (const kind of KINDS) {
      this.pending.add(kind);
      const signatures = new Map<string, string>();
      let synced = false;
      const informer = startInformer<KubeObject>(client, kind.type, {
        onSnapshot: (items) => {
          // The first list is what the page reads anyway; a relist (after a 410) may hide changes.
          const next = new Map(items.map((o) => [objectKey(o), kind.signature(o)]));
          const differs = next.size !== signatures.size || [...next].some(([k, s]) => signatures.get(k) !== s);
          signatures.clear();
          for (const [k, s] of next) signatures.set(k, s);
          if (!synced) {
            synced = true;
            this.synced(kind);
          } else if (differs) this.changed();
        },
        onEvent: (e) => {
          const key = objectKey(e.object);
          const before = signatures.get(key);
          if (e.type === 'DELETED') {
            signatures.delete(key);
            this.changed();
            return;
          }
          const now = kind.signature(e.object);
          signatures.set(key, now);
          if (before !== now) this.changed();
        },
        onState: (s) => {
          if (s.state === 'retrying') {
            const err = s.error;
            if ((kind.optional && isKubeError(err, 404)) || (kind.hiddenWhenForbidden && isKubeError(err, 403))) {
              informer.stop();
              this.stopped += 1;
              this.synced(kind);
            } else if (isKubeError(err, 403) || isKubeError(err, 401)) {
              this.refuse(err.message);
            } else if (this.state !== 'refused') this.setState('retrying', err.message);
          } else if (s.state === 'watching' && synced && this.pending.size === 0 && this.state === 'retrying') {
            this.setState('watching');
          }
        },
      });
      this.informers.push(informer);
    }
  }

  /** Tells a new listener where the watch stands. */
  greet(listener: FleetWatchListener): void {
    if (this.state === 'retrying' && this.pending.size > 0 && !this.message) return;
    listener(this.news('state'));
  }

  /** Watches running on the cluster now (none once refused; one where only one OLM is served). */
  get running(): number {
    return this.informers.length - this.stopped;
  }

  stop(): void {
    for (const i of this.informers) i.stop();
    if (this.coalesce) clearTimeout(this.coalesce);
    if (this.linger) clearTimeout(this.linger);
  }

  private synced(kind: Kind<KubeObject>): void {
    this.pending.delete(kind);
    if (this.pending.size > 0 || this.state === 'refused') return;
    // An answer given to this person before the watch began may predate a change it will never
    // report: dropped, and the page told to read the row again.
    this.stale = !this.primed && this.opts.forget(this.person, this.member.name, this.startedAt);
    this.setState('watching');
    this.stale = false;
  }

  private changed(): void {
    if (this.state === 'refused') return;
    this.changes += 1;
    this.opts.forget(this.person, this.member.name);
    this.coalesce ??= setTimeout(() => {
      this.coalesce = undefined;
      this.tell(this.news('change'));
    }, this.opts.coalesceMs);
  }

  private refuse(message: string): void {
    if (this.state === 'refused') return;
    for (const i of this.informers) i.stop();
    this.stopped = this.informers.length;
    this.setState('refused', message);
  }

  private setState(state: FleetWatchState, message?: string): void {
    if (state === this.state && message === this.message) return;
    this.state = state;
    this.message = message;
    this.tell(this.news('state'));
  }

  private news(type: FleetWatchNews['type']): FleetWatchNews {
    return {
      cluster: this.member.name,
      type,
      state: this.state,
      mark: `${this.id}:${this.changes}`,
      ...(this.stale ? { stale: true } : {}),
      ...(this.message ? { message: this.message } : {}),
    };
  }

  private tell(news: FleetWatchNews): void {
    for (const l of this.listeners) l(news);
  }
}

export class ApprovalWatches {
  private readonly watched = new Map<string, Watched>();
  private readonly perPerson = new Map<string, number>();

  constructor(private readonly opts: ApprovalWatchOptions) {}

  /**
   * Listens to the person's approvals on the cluster, starting the shared watch if none runs;
   * returns the function that stops listening (idempotent). The listener is told the watch's
   * state at once where it is known, then every change of state and of the row.
   */
  listen(person: FleetPerson, member: FleetMember, listener: FleetWatchListener): () => void {
    return this.hold(person, member, listener, false);
  }

  /**
   * Starts the watch, if none runs, as a read of the row begins (the page's read comes with the
   * watch, so it need not be read again when the watch is ready); it ends `lingerMs` later unless a
   * page listens by then.
   */
  prime(person: FleetPerson, member: FleetMember): void {
    this.hold(person, member, () => {}, true)();
  }

  private hold(person: FleetPerson, member: FleetMember, listener: FleetWatchListener, primed: boolean) {
    // Where the name points too: a hub-listed cluster moved to another address is watched there anew.
    const key = `${person.key}\n${member.name}\n${clusterCacheKey(member) ?? ''}`;
    let w = this.watched.get(key);
    if (!w) {
      const held = this.perPerson.get(person.key) ?? 0;
      if (held >= this.opts.perPerson) {
        listener({
          cluster: member.name,
          type: 'state',
          state: 'unwatched',
          mark: '',
          message:
            `you already follow ${held} clusters live, the most one person may (OLM_CONSOLE_MAX_FLEET_WATCHES_PER_USER); ` +
            'this one is read again every 30 seconds instead',
        });
        return () => {};
      }
      w = new Watched(person, member, this.opts, primed);
      this.watched.set(key, w);
      this.perPerson.set(person.key, held + 1);
      w.start();
    }
    const watched = w;
    if (watched.linger) {
      clearTimeout(watched.linger);
      watched.linger = undefined;
    }
    watched.listeners.add(listener);
    watched.greet(listener);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      watched.listeners.delete(listener);
      if (watched.listeners.size > 0) return;
      const drop = () => {
        if (watched.listeners.size > 0 || this.watched.get(key) !== watched) return;
        watched.stop();
        this.watched.delete(key);
        const n = (this.perPerson.get(person.key) ?? 1) - 1;
        if (n > 0) this.perPerson.set(person.key, n);
        else this.perPerson.delete(person.key);
      };
      // A page reconnecting (or going to another fleet page and back) finds the watch still there.
      if (this.opts.lingerMs <= 0) drop();
      else {
        watched.linger = setTimeout(drop, this.opts.lingerMs);
        watched.linger.unref?.();
      }
    };
  }

  /** Watches running on the clusters, for every person (a cluster has one or two). */
  running(): number {
    let n = 0;
    for (const w of this.watched.values()) n += w.running;
    return n;
  }

  /** Clusters watched: for one person (by their cache key), or in all. */
  count(personKey?: string): number {
    return personKey === undefined ? this.watched.size : (this.perPerson.get(personKey) ?? 0);
  }
}

/** Clusters one person may follow live at once (each a watch of InstallPlans and of ClusterExtensions). */
export const DEFAULT_FLEET_WATCHES_PER_USER = 64;
export const FLEET_WATCHES_ENV = 'OLM_CONSOLE_MAX_FLEET_WATCHES_PER_USER';
/** How long a watch outlives its last page: longer than a page's reconnect (2 s) or a move between pages. */
export const FLEET_WATCH_LINGER_MS = 30_000;

export function fleetWatchesPerUser(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env[FLEET_WATCHES_ENV]);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_FLEET_WATCHES_PER_USER;
}

const HUB = Symbol.for('olm-console.fleet.approval-watches');

/** The replica's one set of watches, whichever route bundle asks (each may hold its own copy of this module). */
export function approvalWatches(): ApprovalWatches {
  const g = globalThis as { [HUB]?: ApprovalWatches };
  g[HUB] ??= new ApprovalWatches({
    perPerson: fleetWatchesPerUser(),
    lingerMs: FLEET_WATCH_LINGER_MS,
    coalesceMs: 250,
    forget: forgetCluster,
  });
  return g[HUB];
}
