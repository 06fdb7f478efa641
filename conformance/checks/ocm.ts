// The Open Cluster Management checks (the opt-in fleet group, conformance/fleet.ts): what the
// console and rollouts read of a hub, on the sandbox fleet's hub and on a real OCM v1.0.0 hub
// (`npm run cluster -- --fleet 2`): a ManagedCluster's fields and conditions, the cluster sets, a
// Placement's decision, a ManifestWork's status and status feedback, a ManifestWorkReplicaSet's
// summary and conditions (and, in ocm-rules.ts, a rollout's progressDeadline and condition rules'
// messages). The managed cluster that is not the hub is named differently on each
// side (`prod-west`, `cluster2`): it is `<member>` in every answer, its API server
// `<member-server>`; which of two clusters comes first by name differs too, so decisions are
// compared as sets.
import type { Check } from '../run-checks';
import { must, until, type Obj } from './olm-read';
import {
  C,
  W,
  as,
  conditions,
  configMap,
  deployment,
  fleetOf,
  mwrs,
  mwrsWorks,
  named,
  namespaceWithBinding,
  placement,
  work,
  workStatus,
} from './ocm-read';
import { ocmRuleChecks } from './ocm-rules';

export { registerOcmFleet, type OcmFleet } from './ocm-read';

export const ocmChecks: Check[] = [
  {
    id: 'ocm.managed-cluster',
    run: async (t) => {
      const { member } = fleetOf(t);
      const mc = await must(t, 'GET', `${C}/v1/managedclusters/${member}`);
      const spec = mc.spec as { managedClusterClientConfigs?: { url: string; caBundle?: string }[] };
      const status = (mc.status ?? {}) as Record<string, unknown>;
      return named(t, {
        labels: mc.metadata.labels,
        annotations: Object.keys(mc.metadata.annotations ?? {}).sort(),
        finalizers: (mc.metadata as { finalizers?: string[] }).finalizers,
        spec: {
          ...spec,
          managedClusterClientConfigs: spec.managedClusterClientConfigs?.map((c) => ({
            url: c.url,
            caBundle: c.caBundle ? Buffer.from(c.caBundle, 'base64').toString().includes('BEGIN CERTIFICATE') : false,
          })),
        },
        statusFields: Object.keys(status).sort(),
        conditions: conditions(mc),
        version: typeof (status.version as { kubernetes?: string })?.kubernetes,
        capacity: Object.keys((status.capacity as object) ?? {}).sort(),
      });
    },
  },
  {
    id: 'ocm.managed-cluster.local',
    run: async (t) => {
      const list = (await must(t, 'GET', `${C}/v1/managedclusters`)) as unknown as { items: Obj[] };
      return named(
        t,
        list.items.map((m) => [as(t, m.metadata.name), conditions(m).map((c) => `${c.type}=${c.status}`)]).sort(),
      );
    },
  },
  {
    id: 'ocm.cluster-sets',
    run: async (t) => {
      const list = (await must(t, 'GET', `${C}/v1beta2/managedclustersets`)) as unknown as { items: Obj[] };
      return list.items.map((s) => ({ name: s.metadata.name, spec: s.spec, conditions: conditions(s) }));
    },
  },
  {
    id: 'ocm.placement',
    run: async (t) => {
      const ns = 'ocm-conformance-placement';
      await must(t, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      const unbound = await placement(t, ns, 'unbound', {});
      await must(t, 'POST', `${C}/v1beta2/namespaces/${ns}/managedclustersetbindings`, {
        apiVersion: 'cluster.open-cluster-management.io/v1beta2',
        kind: 'ManagedClusterSetBinding',
        metadata: { name: 'default' },
        spec: { clusterSet: 'default' },
      });
      const binding = await until(t, 'the binding bound', async () => {
        const b = await must(t, 'GET', `${C}/v1beta2/namespaces/${ns}/managedclustersetbindings/default`);
        return conditions(b).length ? conditions(b) : undefined;
      });
      return named(t, {
        unbound,
        binding,
        each: await placement(t, ns, 'each', { decisionStrategy: { groupStrategy: { clustersPerDecisionGroup: 1 } } }),
        one: (({ decisions, ...rest }) => ({ ...rest, decided: decisions.flatMap((d) => d.clusters).length }))(
          await placement(t, ns, 'one', { numberOfClusters: 1 }),
        ),
        three: await placement(t, ns, 'three', { numberOfClusters: 3 }),
        none: await placement(t, ns, 'none', {
          predicates: [
            { requiredClusterSelector: { labelSelector: { matchLabels: { 'ocm-conformance': 'nowhere' } } } },
          ],
        }),
        wrongSet: await placement(t, ns, 'wrong-set', { clusterSets: ['global'] }),
      });
    },
  },
  {
    id: 'ocm.placement.claims',
    run: async (t) => {
      const { member, memberTarget } = fleetOf(t);
      const ns = 'ocm-conformance-claims';
      await namespaceWithBinding(t, ns);
      await must(memberTarget, 'POST', `${C}/v1alpha1/clusterclaims`, {
        apiVersion: 'cluster.open-cluster-management.io/v1alpha1',
        kind: 'ClusterClaim',
        metadata: { name: 'conformance.example.com' },
        spec: { value: 'claimed' },
      });
      const claims = await until(t, 'the claim on the hub', async () => {
        const mc = await must(t, 'GET', `${C}/v1/managedclusters/${member}`);
        const list = (mc.status?.clusterClaims as { name: string; value: string }[] | undefined) ?? [];
        return list.some((c) => c.name === 'conformance.example.com') ? list : undefined;
      });
      const selected = await placement(t, ns, 'claimed', {
        predicates: [
          {
            requiredClusterSelector: {
              claimSelector: {
                matchExpressions: [{ key: 'conformance.example.com', operator: 'In', values: ['claimed'] }],
              },
            },
          },
        ],
      });
      return named(t, { claims: claims.filter((c) => c.name === 'conformance.example.com'), selected });
    },
  },
  {
    id: 'ocm.manifestwork',
    run: async (t) => {
      const { member, memberTarget } = fleetOf(t);
      const w = await work(
        t,
        member,
        'ocm-conformance',
        {
          workload: { manifests: [configMap('ocm-conformance'), deployment('ocm-conformance')] },
          manifestConfigs: [
            {
              resourceIdentifier: {
                group: 'apps',
                resource: 'deployments',
                name: 'ocm-conformance',
                namespace: 'default',
              },
              feedbackRules: [
                { type: 'WellKnownStatus' },
                {
                  type: 'JSONPaths',
                  jsonPaths: [
                    { name: 'available', path: '.status.conditions[?(@.type=="Available")].status' },
                    { name: 'image', path: '.spec.template.spec.containers[0].image' },
                  ],
                },
              ],
            },
            {
              resourceIdentifier: { resource: 'configmaps', name: 'ocm-conformance', namespace: 'default' },
              feedbackRules: [{ type: 'JSONPaths', jsonPaths: [{ name: 'greeting', path: '.data.greeting' }] }],
            },
          ],
        },
        (x) =>
          JSON.stringify(x.status ?? {}).includes('"AvailableReplicas"') &&
          JSON.stringify(x.status ?? {}).includes('"available"'),
      );
      const onMember = await must(memberTarget, 'GET', '/api/v1/namespaces/default/configmaps/ocm-conformance');
      await must(t, 'DELETE', `${W}/v1/namespaces/${member}/manifestworks/ocm-conformance`);
      const removed = await until(t, 'the ConfigMap removed from the member', async () => {
        const r = await must(memberTarget, 'GET', '/api/v1/namespaces/default/configmaps').then((l) =>
          (l as unknown as { items: Obj[] }).items.every((c) => c.metadata.name !== 'ocm-conformance'),
        );
        return r || undefined;
      });
      return named(t, { work: workStatus(w), onMember: onMember.data, removed });
    },
  },
  {
    id: 'ocm.manifestwork.refused',
    run: async (t) => {
      const { member } = fleetOf(t);
      const w = await work(
        t,
        member,
        'ocm-conformance-refused',
        { workload: { manifests: [configMap('x', 'ocm-conformance-no-such-namespace')] } },
        (x) => conditions(x).length > 0,
      );
      return named(t, workStatus(w));
    },
  },
  {
    id: 'ocm.mwrs.all',
    run: async (t) => {
      const ns = 'ocm-conformance-mwrs';
      await namespaceWithBinding(t, ns);
      await placement(t, ns, 'each', { decisionStrategy: { groupStrategy: { clustersPerDecisionGroup: 1 } } });
      await mwrs(t, ns, 'all', { type: 'All' }, [configMap('ocm-conformance-mwrs')]);
      const set = await until(t, 'the set applied', async () => {
        const s = await must(t, 'GET', `${W}/v1alpha1/namespaces/${ns}/manifestworkreplicasets/all`);
        return conditions(s).some((c) => c.type === 'ManifestworkApplied' && c.status === 'True') ? s : undefined;
      });
      const works = await mwrsWorks(t, ns, 'all');
      await must(t, 'DELETE', `${W}/v1alpha1/namespaces/${ns}/manifestworkreplicasets/all`);
      const gone = await until(t, 'its works gone', async () =>
        (await mwrsWorks(t, ns, 'all')).length ? undefined : true,
      );
      return named(t, {
        finalizers: (set.metadata as { finalizers?: string[] }).finalizers,
        conditions: conditions(set),
        summary: set.status?.summary,
        placementSummary: set.status?.placementSummary,
        works,
        gone,
      });
    },
  },
  {
    id: 'ocm.mwrs.progressive-per-group',
    run: async (t) => {
      const ns = 'ocm-conformance-waves';
      await namespaceWithBinding(t, ns);
      await placement(t, ns, 'each', { decisionStrategy: { groupStrategy: { clustersPerDecisionGroup: 1 } } });
      // The first group's work fails (no such namespace): the second group never gets one.
      await mwrs(t, ns, 'waves', { type: 'ProgressivePerGroup' }, [
        configMap('x', 'ocm-conformance-no-such-namespace'),
      ]);
      const set = await until(t, 'the first wave failed', async () => {
        const s = await must(t, 'GET', `${W}/v1alpha1/namespaces/${ns}/manifestworkreplicasets/waves`);
        const applied = conditions(s).find((c) => c.type === 'ManifestworkApplied');
        return applied?.reason === 'NotAsExpected' && (s.status?.summary as { total?: number })?.total ? s : undefined;
      });
      // Long enough for a wrong second wave to show.
      await new Promise((r) => setTimeout(r, 3000));
      Object.assign(set, await must(t, 'GET', `${W}/v1alpha1/namespaces/${ns}/manifestworkreplicasets/waves`));
      return {
        conditions: conditions(set),
        summary: set.status?.summary,
        placementSummary: set.status?.placementSummary,
        works: (await mwrsWorks(t, ns, 'waves')).length,
      };
    },
  },
];

ocmChecks.push(
  {
    // A cluster matched by a named decision group is in that group only, not again in the rest.
    id: 'ocm.placement.decision-groups',
    run: async (t) => {
      const ns = 'ocm-conformance-groups';
      await namespaceWithBinding(t, ns);
      return named(
        t,
        await placement(t, ns, 'grouped', {
          decisionStrategy: {
            groupStrategy: {
              decisionGroups: [
                {
                  groupName: 'every',
                  groupClusterSelector: {
                    labelSelector: {
                      matchExpressions: [
                        { key: 'cluster.open-cluster-management.io/clusterset', operator: 'In', values: ['default'] },
                      ],
                    },
                  },
                },
              ],
              clustersPerDecisionGroup: 2,
            },
          },
        }),
      );
    },
  },
  {
    // What an upgrade as a new generation relies on (lib/olm/rollout/generations.ts): a work whose
    // deleteOption orphans leaves its objects when deleted, a later work of another name applies
    // over them, and CEL condition rules set the manifest's conditions (Available among them).
    id: 'ocm.manifestwork.orphan-then-rules',
    run: async (t) => {
      const { member, memberTarget } = fleetOf(t);
      const path = '/api/v1/namespaces/default/configmaps/ocm-conformance-orphan';
      const rules = [
        {
          resourceIdentifier: { resource: 'configmaps', name: 'ocm-conformance-orphan', namespace: 'default' },
          conditionRules: [
            {
              condition: 'Available',
              type: 'CEL',
              celExpressions: ["has(object.data) && object.data.exists(k, k == 'greeting')"],
              message: 'it greets',
            },
            { condition: 'Farewell', type: 'CEL', celExpressions: ["object.data.greeting == 'bye'"] },
          ],
        },
      ];
      const first = await work(
        t,
        member,
        'ocm-conformance-orphan-1',
        {
          workload: { manifests: [configMap('ocm-conformance-orphan')] },
          deleteOption: { propagationPolicy: 'Orphan' },
          manifestConfigs: rules,
        },
        (x) => JSON.stringify(x.status ?? {}).includes('ConditionRuleEvaluated'),
      );
      await must(t, 'DELETE', `${W}/v1/namespaces/${member}/manifestworks/ocm-conformance-orphan-1`);
      await until(t, 'the orphaning work gone', async () => {
        const l = (await must(t, 'GET', `${W}/v1/namespaces/${member}/manifestworks`)) as unknown as { items: Obj[] };
        return l.items.some((w) => w.metadata.name === 'ocm-conformance-orphan-1') ? undefined : true;
      });
      const kept = await must(memberTarget, 'GET', path);
      await work(
        t,
        member,
        'ocm-conformance-orphan-2',
        {
          workload: { manifests: [{ ...configMap('ocm-conformance-orphan'), data: { greeting: 'bye' } }] },
          deleteOption: { propagationPolicy: 'Orphan' },
          manifestConfigs: rules,
        },
        (x) => JSON.stringify(x.status ?? {}).includes('ConditionRuleEvaluated'),
      );
      const updated = await until(t, 'the second work applied over it', async () => {
        const c = await must(memberTarget, 'GET', path);
        return (c.data as { greeting?: string })?.greeting === 'bye' ? c : undefined;
      });
      const secondNow = await until(t, 'the second work judged after its update', async () => {
        const w = await must(t, 'GET', `${W}/v1/namespaces/${member}/manifestworks/ocm-conformance-orphan-2`);
        return workStatus(w).manifests[0]?.conditions.some((c) => c.type === 'Farewell' && c.status === 'True')
          ? w
          : undefined;
      });
      await must(t, 'DELETE', `${W}/v1/namespaces/${member}/manifestworks/ocm-conformance-orphan-2`);
      await until(t, 'the second work gone', async () => {
        const l = (await must(t, 'GET', `${W}/v1/namespaces/${member}/manifestworks`)) as unknown as { items: Obj[] };
        return l.items.some((w) => w.metadata.name === 'ocm-conformance-orphan-2') ? undefined : true;
      });
      const stillThere = (await must(memberTarget, 'GET', path)).data;
      await must(memberTarget, 'DELETE', path);
      return named(t, {
        first: workStatus(first),
        kept: kept.data,
        owners: (updated.metadata as { ownerReferences?: unknown[] }).ownerReferences ?? [],
        second: workStatus(secondNow),
        stillThere,
      });
    },
  },
);

ocmChecks.push(...ocmRuleChecks);
