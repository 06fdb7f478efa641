// The Kubernetes API as a client sees it: discovery, /version, errors as Status objects, Table
// output of the OLM kinds, selectors, paging, dry run, patches, server-side apply, finalizers,
// watch, and the seed users' access reviews. Each check makes the same requests on both clusters
// and returns what a client would read.
import { call, watchEvents, type Answer, type Target } from '../target';
import type { Check } from '../run-checks';

const NS = 'conformance';
const OLM_GROUPS = ['operators.coreos.com', 'packages.operators.coreos.com'];
const OLM_KINDS: [string, string, string][] = [
  ['operators.coreos.com/v1alpha1', 'clusterserviceversions', 'ClusterServiceVersion'],
  ['operators.coreos.com/v1alpha1', 'subscriptions', 'Subscription'],
  ['operators.coreos.com/v1alpha1', 'installplans', 'InstallPlan'],
  ['operators.coreos.com/v1alpha1', 'catalogsources', 'CatalogSource'],
  ['operators.coreos.com/v1', 'operatorgroups', 'OperatorGroup'],
  ['operators.coreos.com/v2', 'operatorconditions', 'OperatorCondition'],
];
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

const statusOf = (a: Answer) => ({ status: a.status, body: a.body });

async function ensureNamespace(t: Target, name: string): Promise<void> {
  const r = await call(t, {
    method: 'POST',
    path: '/api/v1/namespaces',
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
  });
  if (r.status !== 201 && r.status !== 409)
    throw new Error(`${t.name}: creating namespace ${name}: ${r.status} ${JSON.stringify(r.body)}`);
}

async function configMap(t: Target, name: string, extra: Record<string, unknown> = {}): Promise<Answer> {
  return call(t, {
    method: 'POST',
    path: `/api/v1/namespaces/${NS}/configmaps`,
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data: { a: '1' } },
  });
}

interface ApiResource {
  name: string;
  singularName?: string;
  namespaced: boolean;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
}

export function resourceFacts(list: { resources?: ApiResource[] }, only?: string[]) {
  return (list.resources ?? [])
    .filter((r) => !only || only.includes(r.name))
    .map((r) => ({
      name: r.name,
      singularName: r.singularName ?? '',
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: [...r.verbs].sort(),
      shortNames: [...(r.shortNames ?? [])].sort(),
      categories: [...(r.categories ?? [])].sort(),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export const apiChecks: Check[] = [
  {
    id: 'discovery/groups',
    run: async (t) => {
      const r = await call(t, { path: '/apis' });
      const groups = (
        r.body as {
          groups: { name: string; versions: { groupVersion: string }[]; preferredVersion: { groupVersion: string } }[];
        }
      ).groups;
      return groups
        .filter((g) => OLM_GROUPS.includes(g.name))
        .map((g) => ({
          name: g.name,
          versions: g.versions.map((v) => v.groupVersion),
          preferred: g.preferredVersion.groupVersion,
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
    },
  },
  ...[
    'operators.coreos.com/v1alpha1',
    'operators.coreos.com/v1',
    'operators.coreos.com/v2',
    'operators.coreos.com/v1alpha2',
  ].map((gv) => ({
    id: `discovery/resources/${gv}`,
    run: async (t: Target) => {
      const r = await call(t, { path: `/apis/${gv}` });
      return r.status === 200 ? resourceFacts(r.body as { resources: ApiResource[] }) : { status: r.status };
    },
  })),
  {
    id: 'discovery/resources/v1 (the kinds the console uses)',
    run: async (t) =>
      resourceFacts((await call(t, { path: '/api/v1' })).body as { resources: ApiResource[] }, [
        'namespaces',
        'configmaps',
        'secrets',
        'serviceaccounts',
        'services',
        'events',
        'pods',
        'nodes',
      ]),
  },
  ...[
    ['storage.k8s.io/v1', 'storageclasses'],
    ['scheduling.k8s.io/v1', 'priorityclasses'],
  ].map(([gv, resource]) => ({
    id: `discovery/resources/${gv} (${resource}, named by operand form pickers)`,
    run: async (t: Target) =>
      resourceFacts((await call(t, { path: `/apis/${gv}` })).body as { resources: ApiResource[] }, [resource!]),
  })),
  {
    id: 'built-in PriorityClasses (the ones kube-apiserver creates at start)',
    run: async (t) => {
      const list = (await call(t, { path: '/apis/scheduling.k8s.io/v1/priorityclasses' })).body as {
        items: {
          metadata: { name: string };
          value: number;
          globalDefault?: boolean;
          description?: string;
          preemptionPolicy?: string;
        }[];
      };
      return list.items
        .map((p) => ({
          name: p.metadata.name,
          value: p.value,
          globalDefault: p.globalDefault ?? false,
          description: p.description,
          preemptionPolicy: p.preemptionPolicy,
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
    },
  },
  {
    id: 'version/shape',
    run: async (t) => {
      const v = (await call(t, { path: '/version' })).body as Record<string, string>;
      return {
        keys: Object.keys(v).sort(),
        major: v.major,
        gitVersionIsSemver: /^v\d+\.\d+\.\d+/.test(v.gitVersion ?? ''),
      };
    },
  },
  {
    id: 'errors/404 object',
    run: async (t) =>
      statusOf(await call(t, { path: '/apis/operators.coreos.com/v1alpha1/namespaces/default/subscriptions/nope' })),
  },
  {
    id: 'errors/404 namespace',
    run: async (t) => statusOf(await call(t, { path: '/api/v1/namespaces/nope' })),
  },
  {
    // A cluster-scoped kind asked for under a namespace: a built-in and a CRD's kind (OLM's Operator).
    id: 'errors/404 cluster-scoped kind under a namespace',
    run: async (t) => {
      const withType = (a: Answer) => ({ ...statusOf(a), contentType: a.contentType });
      return [
        withType(await call(t, { path: '/api/v1/namespaces/default/nodes' })),
        withType(await call(t, { path: '/apis/operators.coreos.com/v1/namespaces/default/operators' })),
        withType(
          await call(t, {
            method: 'POST',
            path: '/apis/operators.coreos.com/v1/namespaces/default/operators',
            body: { apiVersion: 'operators.coreos.com/v1', kind: 'Operator', metadata: { name: 'nowhere' } },
          }),
        ),
      ];
    },
  },
  {
    id: 'errors/409 already exists',
    run: async (t) =>
      statusOf(
        await call(t, {
          method: 'POST',
          path: '/api/v1/namespaces',
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } },
        }),
      ),
  },
  {
    id: 'errors/409 conflict (stale resourceVersion)',
    run: async (t) => {
      await ensureNamespace(t, NS);
      const created = (await configMap(t, 'stale')).body as { metadata: { resourceVersion: string } };
      const first = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'stale', resourceVersion: created.metadata.resourceVersion },
        data: { a: '2' },
      };
      await call(t, { method: 'PUT', path: `/api/v1/namespaces/${NS}/configmaps/stale`, body: first });
      return statusOf(
        await call(t, {
          method: 'PUT',
          path: `/api/v1/namespaces/${NS}/configmaps/stale`,
          body: { ...first, data: { a: '3' } },
        }),
      );
    },
  },
  {
    id: 'errors/422 invalid name',
    run: async (t) =>
      statusOf(
        await call(t, {
          method: 'POST',
          path: `/api/v1/namespaces/default/configmaps`,
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name' } },
        }),
      ),
  },
  {
    id: 'errors/403 with the user and verb',
    run: async (t) => [
      statusOf(
        await call(t, { user: 'alice', path: '/apis/operators.coreos.com/v1alpha1/namespaces/default/subscriptions' }),
      ),
      statusOf(
        await call(t, {
          user: 'bob',
          method: 'POST',
          path: '/api/v1/namespaces',
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bobs' } },
        }),
      ),
    ],
  },
  {
    // kube-apiserver authorizes before it routes: someone who may not list a kind is refused it
    // even where no such API is served (here OCM's, which neither main cluster serves), while
    // discovery, which every signed-in user may read, says it is not there.
    id: 'errors/403 before 404 for an API the cluster does not serve',
    run: async (t) => [
      statusOf(await call(t, { user: 'alice', path: '/apis/cluster.open-cluster-management.io/v1/managedclusters' })),
      statusOf(await call(t, { user: 'bob', path: '/apis/example.com/v1/namespaces/team1/widgets/one/status' })),
      (await call(t, { user: 'alice', path: '/apis/cluster.open-cluster-management.io/v1' })).status,
      // A non-resource path nothing serves: refused as a path, not found only for an admin.
      statusOf(await call(t, { user: 'bob', path: '/nosuch' })),
    ],
  },
  {
    id: 'errors/400 malformed continue token',
    run: async (t) =>
      statusOf(await call(t, { path: `/api/v1/namespaces/default/configmaps?limit=1&continue=garbage` })),
  },
  ...OLM_KINDS.map(([gv, plural]) => ({
    id: `table/${plural}`,
    run: async (t: Target) => {
      const r = await call(t, { path: `/apis/${gv}/namespaces/default/${plural}`, accept: TABLE });
      const body = r.body as {
        kind?: string;
        columnDefinitions?: { name: string; type: string; format: string; priority: number; description: string }[];
      };
      return {
        status: r.status,
        kind: body.kind,
        columns: body.columnDefinitions?.map((c) => ({
          name: c.name,
          type: c.type,
          format: c.format,
          priority: c.priority,
        })),
      };
    },
  })),
  {
    id: "table/priorityclasses (a built-in's printer: fields JSON omits print as Go zero values)",
    run: async (t) => {
      const r = await call(t, { path: '/apis/scheduling.k8s.io/v1/priorityclasses', accept: TABLE });
      const body = r.body as { columnDefinitions?: { name: string; type: string }[]; rows?: { cells: unknown[] }[] };
      const columns = body.columnDefinitions?.map((c) => `${c.name}:${c.type}`) ?? [];
      const age = columns.indexOf('Age:string');
      return {
        status: r.status,
        columns,
        rows: (body.rows ?? [])
          .map((row) => row.cells.filter((_, i) => i !== age))
          .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      };
    },
  },
  {
    id: 'rbac/SelfSubjectAccessReview for the seed users',
    run: async (t) => {
      const asks: [string, Record<string, string>][] = [];
      for (const user of ['alice', 'bob']) {
        for (const ns of ['team1', 'default']) {
          for (const [verb, group, resource] of [
            ['create', 'operators.coreos.com', 'subscriptions'],
            ['patch', 'operators.coreos.com', 'installplans'],
            ['delete', 'operators.coreos.com', 'clusterserviceversions'],
            ['list', 'packages.operators.coreos.com', 'packagemanifests'],
            ['create', 'operators.coreos.com', 'operatorgroups'],
            ['create', 'operators.coreos.com', 'catalogsources'],
            ['create', '', 'pods/portforward'],
            ['list', '', 'secrets'],
            ['list', 'storage.k8s.io', 'storageclasses'],
            ['list', 'scheduling.k8s.io', 'priorityclasses'],
          ]) {
            const [res, sub] = resource!.split('/');
            asks.push([
              user,
              { namespace: ns!, verb: verb!, group: group!, resource: res!, ...(sub ? { subresource: sub } : {}) },
            ]);
          }
        }
        asks.push([user, { verb: 'create', group: '', resource: 'namespaces' }]);
        asks.push([user, { verb: 'list', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' }]);
      }
      const out: string[] = [];
      for (const [user, attrs] of asks) {
        const r = await call(t, {
          user,
          method: 'POST',
          path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SelfSubjectAccessReview',
            spec: { resourceAttributes: attrs },
          },
        });
        out.push(
          `${user} ${attrs.verb} ${attrs.group}/${attrs.resource}${attrs.subresource ? `/${attrs.subresource}` : ''} in ${attrs.namespace ?? '(cluster)'}: ${(r.body as { status?: { allowed?: boolean } }).status?.allowed ? 'yes' : 'no'}`,
        );
      }
      return out;
    },
  },
  {
    id: 'rbac/SelfSubjectReview names the user',
    run: async (t) => {
      const out: unknown[] = [];
      for (const user of ['admin', 'alice', 'bob']) {
        const r = await call(t, {
          user,
          method: 'POST',
          path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
          body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
        });
        const info = (r.body as { status?: { userInfo?: { username?: string; groups?: string[] } } }).status?.userInfo;
        out.push({
          status: r.status,
          username: info?.username,
          authenticated: info?.groups?.includes('system:authenticated'),
        });
      }
      return out;
    },
  },
  {
    // The upgrade approver's re-check (lib/server/upgrade-target-judge.ts): as one identity, may
    // this person — named with the groups SelfSubjectReview gave them — approve InstallPlans now?
    id: 'rbac/SubjectAccessReview of a person, with their own groups',
    run: async (t) => {
      const out: string[] = [];
      for (const user of ['admin', 'alice', 'bob']) {
        const who = await call(t, {
          user,
          method: 'POST',
          path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
          body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
        });
        const info = (who.body as { status?: { userInfo?: { username?: string; groups?: string[] } } }).status
          ?.userInfo;
        for (const [verb, resource] of [
          ['update', 'installplans'],
          ['patch', 'subscriptions'],
        ] as const) {
          const r = await call(t, {
            method: 'POST',
            path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
            body: {
              apiVersion: 'authorization.k8s.io/v1',
              kind: 'SubjectAccessReview',
              spec: {
                user: info?.username,
                groups: info?.groups ?? [],
                resourceAttributes: { verb, group: 'operators.coreos.com', resource, namespace: 'team1' },
              },
            },
          });
          const allowed = (r.body as { status?: { allowed?: boolean } }).status?.allowed;
          out.push(`${user} ${verb} ${resource} in team1: ${r.status} ${allowed ? 'yes' : 'no'}`);
        }
      }
      // Named with no groups, a user is a member of none: not even system:authenticated, through
      // which everyone may create their own access reviews (system:basic-user).
      const bare = await call(t, {
        method: 'POST',
        path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          spec: {
            user: 'bob',
            resourceAttributes: { verb: 'create', group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' },
          },
        },
      });
      const bareAllowed = (bare.body as { status?: { allowed?: boolean } }).status?.allowed;
      out.push(`bob with no groups create selfsubjectaccessreviews: ${bare.status} ${bareAllowed ? 'yes' : 'no'}`);
      return out;
    },
  },
  {
    id: 'selectors/label and field',
    run: async (t) => {
      await ensureNamespace(t, NS);
      for (const [name, labels] of [
        ['sel-a', { app: 'a', tier: 'web' }],
        ['sel-b', { app: 'b' }],
        ['sel-c', {}],
      ] as const)
        await configMap(t, name, { labels });
      const names = async (q: string) => {
        const r = await call(t, { path: `/api/v1/namespaces/${NS}/configmaps?${q}` });
        return r.status === 200
          ? (r.body as { items: { metadata: { name: string } }[] }).items
              .map((i) => i.metadata.name)
              .filter((n) => n.startsWith('sel-'))
              .sort()
          : statusOf(r);
      };
      const out: Record<string, unknown> = {};
      for (const q of [
        'labelSelector=app%3Da',
        'labelSelector=app!%3Da',
        'labelSelector=app+in+(a,b)',
        'labelSelector=!app',
        'labelSelector=tier',
        'fieldSelector=metadata.name%3Dsel-b',
        'fieldSelector=metadata.name!%3Dsel-b',
        'fieldSelector=spec.nope%3Dx',
        'labelSelector=app%3D%3D',
      ])
        out[decodeURIComponent(q)] = await names(q);
      return out;
    },
  },
  {
    id: 'paging/limit and continue',
    run: async (t) => {
      await ensureNamespace(t, 'conformance-paging');
      // Labelled, so that what a cluster puts in every namespace (kube-root-ca.crt) stays out.
      for (const n of ['p1', 'p2', 'p3', 'p4', 'p5'])
        await call(t, {
          method: 'POST',
          path: '/api/v1/namespaces/conformance-paging/configmaps',
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n, labels: { page: 'yes' } } },
        });
      const pages: unknown[] = [];
      let token = '';
      for (let i = 0; i < 4; i++) {
        const r = await call(t, {
          path: `/api/v1/namespaces/conformance-paging/configmaps?labelSelector=page&limit=2${token ? `&continue=${encodeURIComponent(token)}` : ''}`,
        });
        const body = r.body as {
          items: { metadata: { name: string } }[];
          metadata: { continue?: string; remainingItemCount?: number };
        };
        pages.push({
          names: body.items.map((x) => x.metadata.name).filter((n) => n.startsWith('p')),
          more: !!body.metadata.continue,
          remaining: body.metadata.remainingItemCount,
        });
        token = body.metadata.continue ?? '';
        if (!token) break;
      }
      return pages;
    },
  },
  {
    id: 'dryRun/create is answered and not stored',
    run: async (t) => {
      await ensureNamespace(t, NS);
      const r = await call(t, {
        method: 'POST',
        path: `/api/v1/namespaces/${NS}/configmaps?dryRun=All`,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry' } },
      });
      const after = await call(t, { path: `/api/v1/namespaces/${NS}/configmaps/dry` });
      return {
        created: r.status,
        name: (r.body as { metadata?: { name?: string } }).metadata?.name,
        stored: after.status,
      };
    },
  },
  {
    id: 'patch/json, merge and strategic merge',
    run: async (t) => {
      await ensureNamespace(t, NS);
      await configMap(t, 'patched', { labels: { keep: 'x' } });
      const path = `/api/v1/namespaces/${NS}/configmaps/patched`;
      const data = async (a: Answer) => ({
        status: a.status,
        data: (a.body as { data?: unknown }).data,
        labels: (a.body as { metadata?: { labels?: unknown } }).metadata?.labels,
      });
      return [
        await data(
          await call(t, {
            method: 'PATCH',
            path,
            contentType: 'application/json-patch+json',
            body: [
              { op: 'add', path: '/data/b', value: '2' },
              { op: 'remove', path: '/data/a' },
            ],
          }),
        ),
        await data(
          await call(t, {
            method: 'PATCH',
            path,
            contentType: 'application/merge-patch+json',
            body: { data: { c: '3', b: null }, metadata: { labels: { added: 'y' } } },
          }),
        ),
        await data(
          await call(t, {
            method: 'PATCH',
            path,
            contentType: 'application/strategic-merge-patch+json',
            body: { data: { d: '4' } },
          }),
        ),
        statusOf(
          await call(t, {
            method: 'PATCH',
            path,
            contentType: 'application/json-patch+json',
            body: [{ op: 'test', path: '/data/c', value: 'nope' }],
          }),
        ),
        statusOf(await call(t, { method: 'PATCH', path, contentType: 'text/plain', body: 'x' })),
      ];
    },
  },
  {
    id: 'patch/server-side apply',
    run: async (t) => {
      await ensureNamespace(t, NS);
      const r = await call(t, {
        method: 'PATCH',
        path: `/api/v1/namespaces/${NS}/configmaps/applied?fieldManager=conformance`,
        contentType: 'application/apply-patch+yaml',
        body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  a: "1"\n',
      });
      return { status: r.status, data: (r.body as { data?: unknown }).data };
    },
  },
  {
    id: 'finalizers/delete waits for them',
    run: async (t) => {
      await ensureNamespace(t, NS);
      await configMap(t, 'final', { finalizers: ['conformance.example.com/hold'] });
      const path = `/api/v1/namespaces/${NS}/configmaps/final`;
      const del = await call(t, { method: 'DELETE', path });
      const held = await call(t, { path });
      const release = await call(t, {
        method: 'PATCH',
        path,
        contentType: 'application/merge-patch+json',
        body: { metadata: { finalizers: null } },
      });
      const gone = await call(t, { path });
      return {
        deleted: del.status,
        stillThere: held.status,
        marked: !!(held.body as { metadata?: { deletionTimestamp?: string } }).metadata?.deletionTimestamp,
        released: release.status,
        afterRelease: gone.status,
      };
    },
  },
  {
    id: 'finalizers/a deleted CRD deletes its instances, waiting for their finalizers',
    run: async (t) => {
      await ensureNamespace(t, NS);
      const group = 'conformance.example.com';
      const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${group}`;
      const poll = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
        for (let i = 0; i < 300; i++) {
          const v = await probe();
          if (v !== undefined) return v;
          await new Promise((r) => setTimeout(r, 200));
        }
        throw new Error(`${t.name}: timed out waiting for ${what}`);
      };
      await call(t, {
        method: 'POST',
        path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
        body: {
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'CustomResourceDefinition',
          metadata: { name: `widgets.${group}` },
          spec: {
            group,
            scope: 'Namespaced',
            names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
            versions: [
              {
                name: 'v1',
                served: true,
                storage: true,
                schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
              },
            ],
          },
        },
      });
      const widgets = `/apis/${group}/v1/namespaces/${NS}/widgets`;
      await poll('the CRD to be served', async () =>
        (await call(t, { path: widgets })).status === 200 ? true : undefined,
      );
      await call(t, {
        method: 'POST',
        path: widgets,
        body: {
          apiVersion: `${group}/v1`,
          kind: 'Widget',
          metadata: { name: 'held', finalizers: ['conformance.example.com/hold'] },
          spec: { size: 1 },
        },
      });
      const del = await call(t, { method: 'DELETE', path: crdPath });
      type Crd = {
        metadata?: { deletionTimestamp?: string; finalizers?: string[] };
        status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
      };
      const instance = await poll('the instance marked for deletion', async () => {
        const w = await call(t, { path: `${widgets}/held` });
        return (w.body as Crd).metadata?.deletionTimestamp
          ? { status: w.status, finalizers: (w.body as Crd).metadata?.finalizers }
          : undefined;
      });
      // Read once the instances are being deleted: kube-apiserver first says InstanceDeletionPending
      // and its CRD finalizer moves on to InstanceDeletionInProgress as it deletes them.
      const terminating = await poll('Terminating=True', async () => {
        const crd = (await call(t, { path: crdPath })).body as Crd;
        const c = crd.status?.conditions?.find((x) => x.type === 'Terminating');
        return c?.status === 'True'
          ? {
              finalizers: crd.metadata?.finalizers,
              marked: !!crd.metadata?.deletionTimestamp,
              condition: { status: c.status, reason: c.reason, message: c.message },
            }
          : undefined;
      });
      await call(t, {
        method: 'PATCH',
        path: `${widgets}/held`,
        contentType: 'application/merge-patch+json',
        body: { metadata: { finalizers: null } },
      });
      const gone = await poll('the CRD to go', async () =>
        (await call(t, { path: crdPath })).status === 404 ? 404 : undefined,
      );
      return { deleted: del.status, terminating, instance, crdAfterRelease: gone };
    },
  },
  {
    id: 'watch/events in order, bookmarks asked for',
    run: async (t) => {
      await ensureNamespace(t, 'conformance-watch');
      const list = await call(t, { path: '/api/v1/namespaces/conformance-watch/configmaps' });
      const rv = (list.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
      // Labelled, so that what a cluster adds to every new namespace (kube-root-ca.crt, written by
      // kube-controller-manager at a moment of its own) stays out of the stream.
      const seen = watchEvents(
        t,
        `/api/v1/namespaces/conformance-watch/configmaps?watch=1&allowWatchBookmarks=true&labelSelector=conformance%3Dwatch&resourceVersion=${rv}`,
        (ev) => ev.some((e) => e.type === 'DELETED' && e.name === 'w1'),
      );
      await new Promise((r) => setTimeout(r, 300));
      const p = '/api/v1/namespaces/conformance-watch/configmaps';
      await call(t, {
        method: 'POST',
        path: p,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w1', labels: { conformance: 'watch' } } },
      });
      await call(t, {
        method: 'PATCH',
        path: `${p}/w1`,
        contentType: 'application/merge-patch+json',
        body: { data: { x: '1' } },
      });
      await call(t, { method: 'DELETE', path: `${p}/w1` });
      return (await seen).filter((e) => e.type !== 'BOOKMARK');
    },
  },
  {
    id: 'olm/CatalogSource without spec is refused by the CRD schema',
    run: async (t) =>
      statusOf(
        await call(t, {
          method: 'POST',
          path: '/apis/operators.coreos.com/v1alpha1/namespaces/default/catalogsources',
          body: { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'CatalogSource', metadata: { name: 'nospec' } },
        }),
      ),
  },
  {
    id: 'olm/Subscription with an unknown installPlanApproval is refused',
    run: async (t) =>
      statusOf(
        await call(t, {
          method: 'POST',
          path: '/apis/operators.coreos.com/v1alpha1/namespaces/default/subscriptions',
          body: {
            apiVersion: 'operators.coreos.com/v1alpha1',
            kind: 'Subscription',
            metadata: { name: 'badapproval' },
            spec: { name: 'x', source: 'y', sourceNamespace: 'olm', installPlanApproval: 'Sometimes' },
          },
        }),
      ),
  },
];
