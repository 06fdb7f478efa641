// RBAC's escalation check as every writer meets it: alice (admin of team1) tries to grant what
// she does not hold — a RoleBinding to cluster-admin, a Role with verbs she lacks, a
// ClusterRoleBinding, an aggregationRule, a patch widening a Role — and grants what she holds;
// `bind` and `escalate` given by name; a binding to a role that does not exist, or one of hers
// to a role that is gone; and the ClusterRole aggregation the check reads through (a role
// labelled to join `view` does, and leaves when deleted). Bodies go as JSON, as the console sends them. Each answer is compared
// by status, reason, message and details: the words of the refusal are the point.
import type { Check } from '../run-checks';
import { call, type Answer, type Target } from '../target';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const V1 = 'rbac.authorization.k8s.io/v1';
const NS = 'team1';
const MERGE = 'application/merge-patch+json';

type Rule = { apiGroups?: string[]; resources?: string[]; verbs: string[]; resourceNames?: string[] };

const refusal = (a: Answer) => {
  const b = (a.body ?? {}) as { reason?: string; message?: string; details?: unknown };
  return a.status < 300
    ? { status: a.status }
    : { status: a.status, reason: b.reason, message: b.message, details: b.details };
};

const role = (name: string, rules: Rule[]) => ({ apiVersion: V1, kind: 'Role', metadata: { name }, rules });
const clusterRole = (name: string, rest: Record<string, unknown>) => ({
  apiVersion: V1,
  kind: 'ClusterRole',
  metadata: { name },
  ...rest,
});
const binding = (kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, ref: [string, string], user: string) => ({
  apiVersion: V1,
  kind,
  metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: ref[0], name: ref[1] },
  subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
});

const post = (t: Target, user: string, path: string, body: unknown) => call(t, { user, method: 'POST', path, body });
const del = (t: Target, path: string) => call(t, { method: 'DELETE', path });

/** Admin's writes the check stands on: they must succeed (or already be there) on both sides. */
async function setUp(t: Target, path: string, body: { metadata: { name: string } }): Promise<void> {
  const r = await post(t, 'admin', path, body);
  if (r.status !== 201 && r.status !== 409)
    throw new Error(`${t.name}: creating ${body.metadata.name}: ${r.status} ${JSON.stringify(r.body)}`);
}

/** Whether `fn` comes true within the time (the controller-manager's work is asynchronous). */
async function until(fn: () => Promise<boolean>, ms = 30_000): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await fn()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 250));
  }
}

export const rbacChecks: Check[] = [
  {
    id: 'rbac-escalation/alice binds team1 to cluster-admin: refused',
    run: async (t) =>
      refusal(
        await post(
          t,
          'alice',
          `${RBAC}/namespaces/${NS}/rolebindings`,
          binding('RoleBinding', 'conf-alice-root', ['ClusterRole', 'cluster-admin'], 'alice'),
        ),
      ),
  },
  {
    id: 'rbac-escalation/alice writes a Role with verbs she lacks: refused, the missing rules listed',
    run: async (t) =>
      refusal(
        await post(
          t,
          'alice',
          `${RBAC}/namespaces/${NS}/roles`,
          role('conf-too-much', [
            { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'impersonate'] },
            { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list'] },
            { apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'], verbs: ['escalate'] },
          ]),
        ),
      ),
  },
  {
    id: 'rbac-escalation/alice writes a ClusterRoleBinding: refused',
    run: async (t) =>
      refusal(
        await post(
          t,
          'alice',
          `${RBAC}/clusterrolebindings`,
          binding('ClusterRoleBinding', 'conf-alice-view', ['ClusterRole', 'view'], 'alice'),
        ),
      ),
  },
  {
    id: 'rbac-escalation/alice grants what she holds in team1: a Role of her rules, bindings to it and to admin',
    run: async (t) => {
      const out = [
        refusal(
          await post(
            t,
            'alice',
            `${RBAC}/namespaces/${NS}/roles`,
            role('conf-cm-reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }]),
          ),
        ),
        refusal(
          await post(
            t,
            'alice',
            `${RBAC}/namespaces/${NS}/rolebindings`,
            binding('RoleBinding', 'conf-carol-cm', ['Role', 'conf-cm-reader'], 'carol'),
          ),
        ),
        refusal(
          await post(
            t,
            'alice',
            `${RBAC}/namespaces/${NS}/rolebindings`,
            binding('RoleBinding', 'conf-carol-admin', ['ClusterRole', 'admin'], 'carol'),
          ),
        ),
        // A patch is judged by the Role it makes.
        refusal(
          await call(t, {
            user: 'alice',
            method: 'PATCH',
            path: `${RBAC}/namespaces/${NS}/roles/conf-cm-reader`,
            contentType: MERGE,
            body: { rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'escalate'] }] },
          }),
        ),
      ];
      for (const p of ['roles/conf-cm-reader', 'rolebindings/conf-carol-cm', 'rolebindings/conf-carol-admin'])
        await del(t, `${RBAC}/namespaces/${NS}/${p}`);
      return out;
    },
  },
  {
    id: 'rbac-escalation/a binding to a role that does not exist: NotFound',
    run: async (t) =>
      refusal(
        await post(
          t,
          'alice',
          `${RBAC}/namespaces/${NS}/rolebindings`,
          binding('RoleBinding', 'conf-ghost', ['ClusterRole', 'conf-no-such-role'], 'carol'),
        ),
      ),
  },
  {
    id: "rbac-escalation/of a Role beyond her, alice may change only the garbage collector's fields",
    run: async (t) => {
      const path = `${RBAC}/namespaces/${NS}/roles/conf-wide`;
      await setUp(
        t,
        `${RBAC}/namespaces/${NS}/roles`,
        role('conf-wide', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]),
      );
      const patch = (body: unknown, user = 'alice') =>
        call(t, { user, method: 'PATCH', path, contentType: MERGE, body });
      const out = [
        refusal(await patch({ metadata: { finalizers: ['example.com/keep'] } })),
        refusal(await patch({ metadata: { labels: { mine: 'yes' } } })),
      ];
      await patch({ metadata: { finalizers: null } }, 'admin');
      await del(t, path);
      return out;
    },
  },
  {
    id: 'rbac-escalation/bind and escalate granted by name: alice binds cluster-admin, writes a wider Role',
    run: async (t) => {
      await setUp(
        t,
        `${RBAC}/namespaces/${NS}/roles`,
        role('conf-may-bind-escalate', [
          {
            apiGroups: ['rbac.authorization.k8s.io'],
            resources: ['clusterroles'],
            verbs: ['bind'],
            resourceNames: ['cluster-admin'],
          },
          { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate'] },
        ]),
      );
      await setUp(
        t,
        `${RBAC}/namespaces/${NS}/rolebindings`,
        binding('RoleBinding', 'conf-alice-may', ['Role', 'conf-may-bind-escalate'], 'alice'),
      );
      const rb = (name: string, ref: string) =>
        post(
          t,
          'alice',
          `${RBAC}/namespaces/${NS}/rolebindings`,
          binding('RoleBinding', name, ['ClusterRole', ref], 'carol'),
        );
      const out = [
        refusal(await rb('conf-carol-root', 'cluster-admin')),
        refusal(
          await post(
            t,
            'alice',
            `${RBAC}/namespaces/${NS}/roles`,
            role('conf-nodes', [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }]),
          ),
        ),
      ];
      for (const p of [
        'rolebindings/conf-carol-root',
        'roles/conf-nodes',
        'rolebindings/conf-alice-may',
        'roles/conf-may-bind-escalate',
      ])
        await del(t, `${RBAC}/namespaces/${NS}/${p}`);
      return out;
    },
  },
  {
    id: 'rbac-escalation/with create on cluster RBAC, alice still grants only what she holds cluster-wide',
    run: async (t) => {
      await setUp(
        t,
        `${RBAC}/clusterroles`,
        clusterRole('conf-rbac-writer', {
          rules: [
            {
              apiGroups: ['rbac.authorization.k8s.io'],
              resources: ['clusterroles', 'clusterrolebindings'],
              verbs: ['create'],
            },
          ],
        }),
      );
      await setUp(
        t,
        `${RBAC}/clusterrolebindings`,
        binding('ClusterRoleBinding', 'conf-alice-rbac-writer', ['ClusterRole', 'conf-rbac-writer'], 'alice'),
      );
      await setUp(
        t,
        `${RBAC}/clusterroles`,
        clusterRole('conf-cm-reader', { rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] }),
      );
      const out = [
        refusal(
          await post(
            t,
            'alice',
            `${RBAC}/clusterrolebindings`,
            binding('ClusterRoleBinding', 'conf-carol-cm', ['ClusterRole', 'conf-cm-reader'], 'carol'),
          ),
        ),
        refusal(
          await post(
            t,
            'alice',
            `${RBAC}/clusterroles`,
            clusterRole('conf-secrets', { rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }] }),
          ),
        ),
        refusal(
          await post(
            t,
            'alice',
            `${RBAC}/clusterroles`,
            clusterRole('conf-gatherer', {
              aggregationRule: { clusterRoleSelectors: [{ matchLabels: { gather: 'me' } }] },
            }),
          ),
        ),
        // What she holds cluster-wide (system:basic-user's) she may grant.
        refusal(
          await post(
            t,
            'alice',
            `${RBAC}/clusterroles`,
            clusterRole('conf-ask', {
              rules: [
                { apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'], verbs: ['create'] },
              ],
            }),
          ),
        ),
      ];
      for (const p of [
        'clusterroles/conf-ask',
        'clusterrolebindings/conf-alice-rbac-writer',
        'clusterroles/conf-rbac-writer',
        'clusterroles/conf-cm-reader',
      ])
        await del(t, `${RBAC}/${p}`);
      return out;
    },
  },
  {
    id: "rbac-escalation/a binding of alice's to a role that is not there is named in her refusal",
    run: async (t) => {
      await setUp(
        t,
        `${RBAC}/namespaces/${NS}/rolebindings`,
        binding('RoleBinding', 'conf-alice-gone', ['Role', 'conf-gone'], 'alice'),
      );
      const out = refusal(
        await post(
          t,
          'alice',
          `${RBAC}/namespaces/${NS}/rolebindings`,
          binding('RoleBinding', 'conf-carol-root', ['ClusterRole', 'cluster-admin'], 'carol'),
        ),
      );
      await del(t, `${RBAC}/namespaces/${NS}/rolebindings/conf-alice-gone`);
      return out;
    },
  },
  {
    id: 'rbac-escalation/a ClusterRole labelled to join view is aggregated into it, and leaves with it',
    run: async (t) => {
      const rule = { apiGroups: ['widgets.example.com'], resources: ['widgets'], verbs: ['get', 'list', 'watch'] };
      // The API server writes a rule's fields in its own order: compared field by field.
      const same = (x: Rule) => (['apiGroups', 'resources', 'verbs'] as const).every((f) => `${x[f]}` === `${rule[f]}`);
      const inRole = async (name: string) => {
        const r = await call(t, { path: `${RBAC}/clusterroles/${name}` });
        return ((r.body as { rules?: Rule[] }).rules ?? []).some((x) => same(x) && !x.resourceNames?.length);
      };
      const bobMay = async () => {
        const r = await post(t, 'bob', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: {
            resourceAttributes: { verb: 'list', group: 'widgets.example.com', resource: 'widgets', namespace: NS },
          },
        });
        return (r.body as { status?: { allowed?: boolean } }).status?.allowed === true;
      };
      const before = { view: await inRole('view'), bob: await bobMay() };
      await setUp(
        t,
        `${RBAC}/clusterroles`,
        clusterRole('conf-widgets-view', {
          metadata: { name: 'conf-widgets-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
          rules: [rule],
        }),
      );
      // kube-controller-manager aggregates in the background: wait for view, edit and admin.
      const joined = await until(async () => (await Promise.all(['view', 'edit', 'admin'].map(inRole))).every(Boolean));
      // The authorizer reads its own cache of the roles: it may see a change a moment later too.
      const during = { joined, bob: await until(bobMay) };
      await del(t, `${RBAC}/clusterroles/conf-widgets-view`);
      const left = await until(async () => (await Promise.all(['view', 'edit', 'admin'].map(inRole))).every((x) => !x));
      return { before, during, after: { left, bob: !(await until(async () => !(await bobMay()))) } };
    },
  },
];
