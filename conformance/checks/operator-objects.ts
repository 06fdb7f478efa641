// The Operator object (`operators.coreos.com/v1`, `<package>.<namespace>`) through an operator's
// life, as OLM's operator and adoption controllers keep it (docs/olm/operator-objects.md): after
// the install, after its Operator is deleted while the install stands, after an upgrade, after each
// deletion of an uninstall in the order people do it (Subscription, CSV, cluster RBAC, CRD,
// InstallPlans), and after the Operator's own deletion once nothing carries its label. The
// generated catalog's `wide` is used by this check only, so its CRD's labels are this namespace's.
import type { Check } from '../run-checks';
import { call, type Target } from '../target';
import {
  approve,
  csvGone,
  csvPhase,
  list,
  must,
  namespace,
  operatorGroup,
  planWaiting,
  readOperator,
  settled,
  subscribe,
  until,
} from './olm-read';

const NS = 'conf-olm-operator-object';
const NAME = `wide.${NS}`;
const OPERATOR = `/apis/operators.coreos.com/v1/operators/${NAME}`;
// Real OLM follows a component's change within a second; the sandbox at once. A step whose
// Operator has not followed in this long says `promptly: false`.
const PROMPTLY = 10_000;

type Ref = { kind: string; name: string; conditions?: { type: string }[] };
const refsOf = async (t: Target): Promise<Ref[] | undefined> => {
  const r = await call(t, { path: OPERATOR });
  if (r.status !== 200) return undefined;
  return ((r.body as { status?: { components?: { refs?: Ref[] } } }).status?.components?.refs ?? []) as Ref[];
};

/** Waits (PROMPTLY at most) for the Operator's refs to pass `ok`; then what a person reads, and whether it did. */
async function step(t: Target, what: string, ok: (refs: Ref[]) => boolean) {
  const promptly = await until(
    t,
    what,
    async () => {
      const refs = await refsOf(t);
      return refs && ok(refs) ? true : undefined;
    },
    PROMPTLY,
  ).catch(() => false);
  const operator = await readOperator(t, NAME);
  // While both CSVs of an upgrade exist a resolution fails (both provide the same API); real OLM
  // writes that on the Subscription only if it resolves the namespace in that window, and keeps it
  // until a later resolution succeeds (the known row of the OperatorCondition check says more).
  // The Subscription's conditions are compared by the other checks; here, that one is left out.
  for (const r of operator.refs ?? [])
    if (r.kind === 'Subscription') r.conditions = r.conditions.filter((c) => !c.startsWith('ResolutionFailed='));
  return { promptly, operator };
}

/** Deletes, taking an object already gone (the garbage collector's, or OLM's) as deleted. */
async function remove(t: Target, path: string): Promise<void> {
  const r = await call(t, { method: 'DELETE', path });
  if (r.status >= 300 && r.status !== 404)
    throw new Error(`${t.name}: DELETE ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
}

const none =
  (...kinds: string[]) =>
  (refs: Ref[]) =>
    !refs.some((r) => kinds.includes(r.kind));

async function install(t: Target, csv: string) {
  const plan = await until(t, `a plan for ${csv} to wait for approval`, planWaiting(t, NS, csv));
  await approve(t, NS, plan);
  await until(t, `${csv} to succeed`, csvPhase(t, NS, csv, 'Succeeded'));
}

export const operatorObjectChecks: Check[] = [
  {
    id: 'olm/Operator object through install, upgrade, uninstall and its own deletion',
    independent: true,
    run: async (t) => {
      const olm = '/apis/operators.coreos.com/v1alpha1/namespaces/' + NS;
      await namespace(t, NS);
      await operatorGroup(t, NS, 'og', { targetNamespaces: [NS] });
      await subscribe(t, NS, 'wide', {
        name: 'wide',
        channel: 'stable',
        installPlanApproval: 'Manual',
        startingCSV: 'wide.v1.0.0',
      });
      await install(t, 'wide.v1.0.0');
      // The next version's plan waits for approval: real OLM makes it some 10-30 s after the
      // install (the sandbox at once), but once in a loaded CI run it took over 120 s, so this wait
      // is longer than the others; the Subscription and the plan the Operator lists are read after.
      await until(t, 'a plan for wide.v1.1.0 to wait for approval', planWaiting(t, NS, 'wide.v1.1.0'), 300_000);
      await settled(t, NS);
      // The adoption controller labels the CSV's objects after the CSV; wait for the last of them.
      const installed = await step(
        t,
        'the Operator to list the Succeeded CSV and its cluster RBAC',
        (refs) =>
          refs.some((r) => r.kind === 'ClusterServiceVersion' && r.conditions?.[0]?.type === 'Succeeded') &&
          refs.some((r) => r.kind === 'ClusterRoleBinding') &&
          refs.some((r) => r.kind === 'CustomResourceDefinition'),
      );

      const uid = (await must(t, 'GET', OPERATOR)).metadata as { uid?: string };
      await must(t, 'DELETE', OPERATOR);
      const madeAgain = await until(
        t,
        'the Operator made again',
        async () => {
          const r = await call(t, { path: OPERATOR });
          return r.status === 200 && (r.body as { metadata: { uid?: string } }).metadata.uid !== uid.uid
            ? true
            : undefined;
        },
        PROMPTLY,
      ).catch(() => false);
      const deletedWhileInstalled = {
        madeAgain,
        ...(await step(t, 'the Operator made again to list the install', (refs) => refs.length > 0)),
      };

      await install(t, 'wide.v1.1.0');
      await until(t, 'wide.v1.0.0 to be replaced and deleted', csvGone(t, NS, 'wide.v1.0.0'));
      await settled(t, NS);
      const upgraded = await step(
        t,
        "the old CSV's objects to leave the list",
        (refs) =>
          !refs.some((r) => r.name.startsWith('wide.v1.0.0')) &&
          refs.filter((r) => r.kind === 'InstallPlan').length === 1 &&
          // The new plan's CRD step rewrites the CRD's labels; the adoption controller puts its label back.
          ['ClusterRoleBinding', 'CustomResourceDefinition', 'Deployment'].every((k) => refs.some((r) => r.kind === k)),
      );

      await must(t, 'DELETE', `${olm}/subscriptions/wide`);
      // Its InstallPlans go with it, when the garbage collector gets to them (at once in the
      // sandbox): the Operator is read once both are gone from the API.
      await until(
        t,
        'the InstallPlans collected',
        async () => ((await list(t, `${olm}/installplans`)).length === 0 ? true : undefined),
        60_000,
      );
      const subscriptionDeleted = await step(
        t,
        'the Subscription and its InstallPlan to leave the list',
        none('Subscription', 'InstallPlan'),
      );

      await must(t, 'DELETE', `${olm}/clusterserviceversions/wide.v1.1.0`);
      await until(t, 'the CSV to go', csvGone(t, NS, 'wide.v1.1.0'));
      // What the CSV owned goes with it, when the garbage collector gets to it.
      await until(
        t,
        "the CSV's Deployment collected",
        async () => ((await list(t, `/apis/apps/v1/namespaces/${NS}/deployments`)).length === 0 ? true : undefined),
        60_000,
      );
      const csvDeleted = await step(
        t,
        'the CSV and what it owned to leave the list',
        none(
          'ClusterServiceVersion',
          'Deployment',
          'OperatorCondition',
          'Role',
          'RoleBinding',
          'ServiceAccount',
          'ClusterRole',
          'ClusterRoleBinding',
        ),
      );

      // A person then deletes what the Operator still names, cluster RBAC first (OLM's CSV
      // finalizer has taken it already: nothing to do unless it is still listed).
      for (const r of (await refsOf(t)) ?? [])
        if (r.kind === 'ClusterRole' || r.kind === 'ClusterRoleBinding')
          await remove(t, `/apis/rbac.authorization.k8s.io/v1/${r.kind.toLowerCase()}s/${r.name}`);
      const rbacDeleted = await step(
        t,
        'the cluster RBAC to leave the list',
        none('ClusterRole', 'ClusterRoleBinding'),
      );

      await must(t, 'DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/wides.wide.example.com');
      const crdDeleted = await step(t, 'the CRD to leave the list', none('CustomResourceDefinition'));

      for (const p of await list(t, `${olm}/installplans`)) await remove(t, `${olm}/installplans/${p.metadata.name}`);
      for (const r of (await refsOf(t)) ?? [])
        if (r.kind === 'ServiceAccount') await remove(t, `/api/v1/namespaces/${NS}/serviceaccounts/${r.name}`);
      const uninstalled = await step(t, 'no refs at all', (refs) => refs.length === 0);

      await must(t, 'DELETE', OPERATOR);
      // Nothing carries its label: nothing makes it again. Give OLM time to have done so.
      await new Promise((r) => setTimeout(r, 5_000));
      const operatorDeleted = (await call(t, { path: OPERATOR })).status;

      return {
        installed,
        deletedWhileInstalled,
        upgraded,
        subscriptionDeleted,
        csvDeleted,
        rbacDeleted,
        crdDeleted,
        uninstalled,
        operatorDeleted,
      };
    },
  },
];
