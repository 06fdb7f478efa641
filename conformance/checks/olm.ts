// OLM as a person or the console reads it: scripted scenarios run the same way on the sandbox and
// on real OLM (scripts/cluster.ts), each in a namespace of its own, against the generated catalog
// (conformance/main.ts). Each returns the objects a person reads once the scenario has settled:
// Subscription status and conditions, InstallPlans with their steps, CSV phase, reason, message,
// conditions and requirement status, OperatorGroup status, PackageManifests, Events.
import { DENIED_ANNOTATION } from '../../lib/server/day-two';
import type { Check } from '../run-checks';
import { call } from '../target';
import {
  CATALOG,
  CATALOG_NS,
  type Obj,
  must,
  list,
  until,
  settled,
  namespace,
  operatorGroup,
  subscribe,
  readNamespace,
  csvPhase,
  csvGone,
  planWaiting,
  approve,
  subscriptionCondition,
  subscriptionSynced,
  readOperator,
} from './olm-read';

export const olmChecks: Check[] = [
  {
    id: 'olm/packagemanifest of a generated package',
    independent: true,
    run: async (t) => {
      const pm = await must(
        t,
        'GET',
        `/apis/packages.operators.coreos.com/v1/namespaces/${CATALOG_NS}/packagemanifests/alpha`,
      );
      return {
        metadata: { name: pm.metadata.name, namespace: pm.metadata.namespace, labels: pm.metadata.labels },
        spec: pm.spec,
        status: pm.status,
      };
    },
    normalise: { dropKeys: ['icon'] },
  },
  {
    id: 'olm/automatic install in an OwnNamespace group',
    // Runs alone, after every other check: real OLM's CRD step replaces an existing CRD's labels
    // with the bundle's (catalog/step.go, Update after AlreadyExists), and the adoption controller
    // decides what to label from a metadata cache that can lag its CRD watch, so an install of alpha
    // in another namespace at the same moment can leave this namespace's label off for good.
    alone: true,
    run: async (t) => {
      const ns = 'conf-olm-auto';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable', installPlanApproval: 'Automatic' });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      // The adoption controller's work: the Operator alpha.<ns> and the label on the CRD it owns
      // (other namespaces' checks install alpha too and add labels of their own to the same CRD).
      const label = `operators.coreos.com/alpha.${ns}`;
      const readCrd = () =>
        must(t, 'GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/alphas.alpha.example.com');
      // The adoption controller labels the CRD after the CSV is labelled, not at once: the check waits
      // for the label (30 s at most) on both clusters, and reads what is there after.
      await until(
        t,
        `the CRD labelled ${label}`,
        async () => (label in ((await readCrd()).metadata.labels ?? {}) ? true : undefined),
        30_000,
      ).catch(() => undefined);
      const crd = await readCrd();
      return {
        ...(await readNamespace(t, ns)),
        operator: await readOperator(t, `alpha.${ns}`),
        crdLabelled: label in (crd.metadata.labels ?? {}),
      };
    },
  },
  {
    id: 'olm/startingCSV walked to the head, one InstallPlan per hop',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-walk';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'alpha', {
        name: 'alpha',
        channel: 'stable',
        installPlanApproval: 'Automatic',
        startingCSV: 'alpha.v1.0.0',
      });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'), 240_000);
      await settled(t, ns);
      return readNamespace(t, ns);
    },
  },
  {
    id: 'olm/manual approval: plan waits, approved plan installs',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-manual';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable', installPlanApproval: 'Manual' });
      const plan = await until(t, 'an InstallPlan to require approval', async () =>
        (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`)).find(
          (p) => p.status?.phase === 'RequiresApproval',
        ),
      );
      // A busy real OLM writes the plan's state onto the Subscription on a later pass.
      await until(
        t,
        'the Subscription to say its plan waits',
        subscriptionCondition(t, ns, 'alpha', 'InstallPlanPending'),
      );
      await settled(t, ns);
      const waiting = await readNamespace(t, ns);
      await must(
        t,
        'PATCH',
        `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans/${plan.metadata.name}`,
        { spec: { approved: true } },
      );
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      return { waiting, approved: await readNamespace(t, ns) };
    },
  },
  {
    id: 'olm/a Manual plan denied as the console denies it, then a later plan approved',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-deny';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'alpha', {
        name: 'alpha',
        channel: 'stable',
        installPlanApproval: 'Manual',
        startingCSV: 'alpha.v1.0.0',
      });
      const first = await until(t, 'the first plan', planWaiting(t, ns, 'alpha.v1.0.0'));
      // Real OLM says so on the Subscription in a later sync, which a loaded machine can hold back
      // past the quiet time `settled` waits for.
      await until(
        t,
        'the Subscription to say the plan waits',
        subscriptionCondition(t, ns, 'alpha', 'InstallPlanPending'),
      );
      // OLM has no "deny": the console leaves the plan unapproved and notes who declined it.
      await must(
        t,
        'PATCH',
        `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans/${first.metadata.name}`,
        { metadata: { annotations: { [DENIED_ANNOTATION]: JSON.stringify({ by: 'conformance' }) } } },
      );
      await settled(t, ns);
      const denied = await readNamespace(t, ns);
      await approve(t, ns, first);
      await until(t, 'alpha.v1.0.0 to succeed', csvPhase(t, ns, 'alpha.v1.0.0', 'Succeeded'));
      await until(t, 'the upgrade plan', planWaiting(t, ns, 'alpha.v2.0.0'));
      await settled(t, ns);
      return { denied, approvedLater: await readNamespace(t, ns) };
    },
  },
  {
    id: 'olm/subscription to a package the catalog lacks',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-nopkg';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'nope', { name: 'no-such-package', channel: 'stable' });
      await until(
        t,
        'a ResolutionFailed condition',
        async () =>
          (
            (await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/nope`)).status
              ?.conditions as { type: string }[] | undefined
          )?.some((c) => c.type === 'ResolutionFailed') || undefined,
      );
      await settled(t, ns);
      return readNamespace(t, ns);
    },
  },
  {
    id: 'olm/no OperatorGroup, then one',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-noog';
      await namespace(t, ns);
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable' });
      await until(t, 'the Subscription to be synced', subscriptionSynced(t, ns, 'alpha'));
      await settled(t, ns);
      const without = await readNamespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      return { without, with: await readNamespace(t, ns) };
    },
  },
  {
    id: 'olm/two OperatorGroups in one namespace',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-twoog';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og-a', { targetNamespaces: [ns] });
      await operatorGroup(t, ns, 'og-b', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable' });
      await until(t, 'the Subscription to be synced', subscriptionSynced(t, ns, 'alpha'));
      await settled(t, ns);
      const two = await readNamespace(t, ns);
      await must(t, 'DELETE', `/apis/operators.coreos.com/v1/namespaces/${ns}/operatorgroups/og-b`);
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      const one = await readNamespace(t, ns);
      await operatorGroup(t, ns, 'og-b', { targetNamespaces: [ns] });
      await until(t, 'alpha.v2.0.0 to fail', csvPhase(t, ns, 'alpha.v2.0.0', 'Failed'));
      await settled(t, ns);
      return { two, one, twoAgain: await readNamespace(t, ns) };
    },
  },
  {
    id: 'olm/dependency installed with its dependant',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-deps';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'beta', {
        name: 'beta',
        channel: 'fast',
        startingCSV: 'beta.v0.1.0',
        installPlanApproval: 'Manual',
      });
      await until(t, 'an InstallPlan', async () =>
        (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`)).find(
          (p) => p.status?.phase === 'RequiresApproval',
        )
          ? true
          : undefined,
      );
      // A busy real OLM writes the plan's state onto the Subscription on a later pass (one CI run
      // read it with CatalogSourcesUnhealthy alone after six quiet seconds).
      await until(
        t,
        'the Subscription to say its plan waits',
        subscriptionCondition(t, ns, 'beta', 'InstallPlanPending'),
      );
      await settled(t, ns);
      return readNamespace(t, ns);
    },
  },
  {
    id: 'olm/one Manual InstallPlan shared by two Subscriptions',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-shared';
      await namespace(t, ns);
      // Both Subscriptions exist before the OperatorGroup, so one resolution sees both.
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable', installPlanApproval: 'Manual' });
      await subscribe(t, ns, 'beta', { name: 'beta', channel: 'fast', installPlanApproval: 'Automatic' });
      await until(
        t,
        'the Subscriptions to be synced',
        async () => (await subscriptionSynced(t, ns, 'alpha')()) && (await subscriptionSynced(t, ns, 'beta')()),
      );
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      const plan = await until(t, 'a plan waiting for approval', planWaiting(t, ns, 'alpha.v2.0.0'));
      await settled(t, ns);
      const waiting = await readNamespace(t, ns);
      await approve(t, ns, plan);
      await until(
        t,
        'both CSVs to succeed',
        async () =>
          (await csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded')()) &&
          (await csvPhase(t, ns, 'beta.v0.2.0', 'Succeeded')()),
      );
      await settled(t, ns);
      return { waiting, approved: await readNamespace(t, ns) };
    },
  },
  {
    id: 'olm/one of two Subscriptions sharing a waiting Manual plan deleted',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-shared-split';
      await namespace(t, ns);
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable', installPlanApproval: 'Manual' });
      await subscribe(t, ns, 'beta', { name: 'beta', channel: 'fast', installPlanApproval: 'Manual' });
      await until(
        t,
        'the Subscriptions to be synced',
        async () => (await subscriptionSynced(t, ns, 'alpha')()) && (await subscriptionSynced(t, ns, 'beta')()),
      );
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await until(t, 'a plan waiting for approval', planWaiting(t, ns, 'alpha.v2.0.0'));
      await settled(t, ns);
      // What the console's move does to the one left behind: its partner's Subscription goes. OLM
      // keeps the waiting plan as it is (both CSVs in it) ...
      await must(t, 'DELETE', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/beta`);
      await settled(t, ns);
      const kept = await readNamespace(t, ns);
      // ... until it goes too: then OLM plans the namespace again, for alpha alone.
      const [waiting] = await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`);
      await must(
        t,
        'DELETE',
        `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans/${waiting!.metadata.name}`,
      );
      await until(t, 'a plan for alpha alone', async () =>
        (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`)).some(
          (p) => JSON.stringify(p.spec?.clusterServiceVersionNames) === '["alpha.v2.0.0"]',
        )
          ? true
          : undefined,
      );
      await settled(t, ns);
      return { kept, replanned: await readNamespace(t, ns) };
    },
  },
  {
    id: 'olm/channel change upgrades along the new channel',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-channel';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable' });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      await must(t, 'PATCH', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/alpha`, {
        spec: { channel: 'fast' },
      });
      await until(t, 'alpha.v2.1.0 to succeed', csvPhase(t, ns, 'alpha.v2.1.0', 'Succeeded'));
      await until(t, 'alpha.v2.0.0 to go', csvGone(t, ns, 'alpha.v2.0.0'));
      await settled(t, ns);
      return readNamespace(t, ns);
    },
  },
  {
    id: 'olm/subscription to a channel or a catalog that does not exist',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-nochannel';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'nochannel', { name: 'alpha', channel: 'no-such-channel' });
      await must(t, 'POST', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions`, {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'Subscription',
        metadata: { name: 'nocatalog' },
        spec: { name: 'alpha', channel: 'stable', source: 'no-such-catalog', sourceNamespace: CATALOG_NS },
      });
      await until(
        t,
        'ResolutionFailed on both',
        async () =>
          (await subscriptionCondition(t, ns, 'nochannel', 'ResolutionFailed')()) &&
          (await subscriptionCondition(t, ns, 'nocatalog', 'ResolutionFailed')()),
      );
      await settled(t, ns);
      // One resolution for the namespace: every Subscription gets the same failure, naming one of
      // the two; which one real OLM's solver names varies from run to run.
      const read = await readNamespace(t, ns);
      const messages = read.subscriptions.map(
        (x) => x.conditions.find((c) => c.type === 'ResolutionFailed')?.message ?? '',
      );
      return {
        ...read,
        subscriptions: read.subscriptions.map((x) => ({
          ...x,
          conditions: x.conditions.map((c) => (c.type === 'ResolutionFailed' ? { ...c, message: '<one failure>' } : c)),
        })),
        failure: {
          sameForEvery: new Set(messages).size === 1,
          namesOne: messages.every((m) =>
            /^constraints not satisfiable: no operators found .*, subscription (nocatalog|nochannel) exists$/.test(m),
          ),
        },
      };
    },
  },
  {
    id: 'olm/catalog unhealthy, then healthy',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-unhealthy';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      // A catalog of the namespace's own, at an address nothing answers on.
      await must(t, 'POST', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/catalogsources`, {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'CatalogSource',
        metadata: { name: 'local' },
        spec: { sourceType: 'grpc', address: '127.0.0.1:1', displayName: 'local' },
      });
      await must(t, 'POST', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions`, {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'Subscription',
        metadata: { name: 'alpha' },
        spec: { name: 'alpha', channel: 'stable', source: 'local', sourceNamespace: ns },
      });
      await until(t, 'ResolutionFailed', subscriptionCondition(t, ns, 'alpha', 'ResolutionFailed'));
      await settled(t, ns);
      // The generated catalog's address: on the real cluster that of the copy with inline bundles
      // (the one served as it is would need unpack Jobs), which no registry replacement names.
      const generated = (
        (await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${CATALOG_NS}/catalogsources/${CATALOG}`))
          .status?.connectionState as { address: string }
      ).address;
      const view = (n: Awaited<ReturnType<typeof readNamespace>>, cs: Obj) => {
        const address = (cs.status?.connectionState as { address?: string } | undefined)?.address;
        return {
          ...n,
          subscriptions: n.subscriptions.map((x) => ({ ...x, catalogHealth: undefined })),
          catalogSource: {
            state: (cs.status?.connectionState as { lastObservedState?: string } | undefined)?.lastObservedState,
            address: address === generated ? '<the generated catalog>' : address,
          },
        };
      };
      const unhealthy = view(
        await readNamespace(t, ns),
        await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/catalogsources/local`),
      );
      await must(t, 'PATCH', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/catalogsources/local`, {
        spec: { address: generated },
      });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      return {
        unhealthy,
        healthy: view(
          await readNamespace(t, ns),
          await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/catalogsources/local`),
        ),
      };
    },
  },
  {
    id: 'olm/another catalog of the namespace invalid while the one subscribed to is healthy, then fixed',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-otherinvalid';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      // Neither image nor address: OLM marks it SpecInvalidError, which its health check counts as
      // unhealthy (an address nothing answers on would count as healthy: OLM checks no address),
      // and every catalog of the namespace is a source its resolution must be able to use.
      await must(t, 'POST', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/catalogsources`, {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'CatalogSource',
        metadata: { name: 'broken' },
        spec: { sourceType: 'grpc', displayName: 'broken' },
      });
      await until(t, 'the catalog to be found invalid', async () =>
        (await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/catalogsources/broken`)).status
          ?.reason === 'SpecInvalidError'
          ? true
          : undefined,
      );
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable' });
      await until(t, 'ResolutionFailed', subscriptionCondition(t, ns, 'alpha', 'ResolutionFailed'));
      await settled(t, ns);
      // The health of this namespace's catalogs; the global namespace's differ between the clusters
      // (the sandbox serves a catalog there for each the registry checks read).
      const read = async () => {
        const sub = await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/alpha`);
        const here = (
          (sub.status?.catalogHealth ?? []) as {
            catalogSourceRef: { name: string; namespace: string };
            healthy: boolean;
          }[]
        )
          .filter((h) => h.catalogSourceRef.namespace === ns)
          .map((h) => ({ name: h.catalogSourceRef.name, healthy: h.healthy }));
        return { ...(await readNamespace(t, ns)), catalogHealthHere: here };
      };
      const invalid = await read();
      const generated = (
        (await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${CATALOG_NS}/catalogsources/${CATALOG}`))
          .status?.connectionState as { address: string }
      ).address;
      await must(t, 'PATCH', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/catalogsources/broken`, {
        spec: { address: generated },
      });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      return { invalid, fixed: await read() };
    },
  },
  {
    id: 'olm/install mode the OperatorGroup does not allow, then fixed',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-mode';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'delta', { name: 'delta', channel: 'stable' });
      await until(t, 'delta.v1.0.0 to fail', csvPhase(t, ns, 'delta.v1.0.0', 'Failed', 'UnsupportedOperatorGroup'));
      await settled(t, ns);
      const unsupported = await readNamespace(t, ns);
      // Two other namespaces make the group MultiNamespace without its own, which delta supports
      // (OLM's InstallModeSet.Supports wants OwnNamespace for a list that names its own).
      await must(t, 'PATCH', `/apis/operators.coreos.com/v1/namespaces/${ns}/operatorgroups/og`, {
        spec: { targetNamespaces: ['default', 'kube-public'] },
      });
      await until(t, 'delta.v1.0.0 to succeed', csvPhase(t, ns, 'delta.v1.0.0', 'Succeeded'));
      await settled(t, ns);
      return { unsupported, fixed: await readNamespace(t, ns) };
    },
  },
  {
    id: 'olm/OperatorCondition Upgradeable=False holds an upgrade',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-held';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'alpha', {
        name: 'alpha',
        channel: 'stable',
        installPlanApproval: 'Manual',
        startingCSV: 'alpha.v1.0.0',
      });
      await approve(t, ns, await until(t, 'the first plan', planWaiting(t, ns, 'alpha.v1.0.0')));
      await until(t, 'alpha.v1.0.0 to succeed', csvPhase(t, ns, 'alpha.v1.0.0', 'Succeeded'));
      const ocPath = `/apis/operators.coreos.com/v2/namespaces/${ns}/operatorconditions/alpha.v1.0.0`;
      await until(t, 'its OperatorCondition', async () =>
        (await call(t, { path: ocPath })).status === 200 ? true : undefined,
      );
      await must(t, 'PATCH', ocPath, {
        spec: {
          conditions: [
            {
              type: 'Upgradeable',
              status: 'False',
              reason: 'Migrating',
              message: 'a migration is running',
              lastTransitionTime: '2026-01-01T00:00:00Z',
            },
          ],
        },
      });
      const next = await until(t, 'the upgrade plan', planWaiting(t, ns, 'alpha.v2.0.0'));
      await approve(t, ns, next);
      await until(t, 'alpha.v2.0.0 to be held', csvPhase(t, ns, 'alpha.v2.0.0', 'Pending'));
      await settled(t, ns);
      // Both CSVs exist: OLM's solver says they cannot both stay, naming either the API they both
      // provide or the package they both come from; which one varies from run to run.
      const sameThing = (r: Awaited<ReturnType<typeof readNamespace>>) => ({
        ...r,
        subscriptions: r.subscriptions.map((x) => ({
          ...x,
          conditions: x.conditions.map((c) => ({
            ...c,
            message: c.message.replace(
              / (provide [^,]+|originate from package [^,]+),/,
              ' <provide one API or come from one package>,',
            ),
          })),
        })),
      });
      const held = sameThing(await readNamespace(t, ns));
      await must(t, 'PATCH', ocPath, {
        spec: {
          conditions: [
            {
              type: 'Upgradeable',
              status: 'True',
              reason: 'Done',
              message: 'the migration is done',
              lastTransitionTime: '2026-01-01T00:01:00Z',
            },
          ],
        },
      });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      return { held, released: sameThing(await readNamespace(t, ns)) };
    },
  },
  {
    id: 'olm/CSV deleted under its Subscription, then uninstall leaves the CRD',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-deleted';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'beta', { name: 'beta', channel: 'fast', startingCSV: 'beta.v0.2.0' });
      await until(t, 'beta.v0.2.0 to succeed', csvPhase(t, ns, 'beta.v0.2.0', 'Succeeded'));
      await settled(t, ns);
      await must(
        t,
        'DELETE',
        `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/clusterserviceversions/beta.v0.2.0`,
      );
      await until(t, 'the CSV to go', csvGone(t, ns, 'beta.v0.2.0'));
      await settled(t, ns);
      const deleted = await readNamespace(t, ns);
      for (const s of await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions`))
        await must(
          t,
          'DELETE',
          `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/${s.metadata.name}`,
        );
      for (const c of await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/clusterserviceversions`))
        await must(
          t,
          'DELETE',
          `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/clusterserviceversions/${c.metadata.name}`,
        );
      await settled(t, ns);
      const crd = await call(t, {
        path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/betas.beta.example.com',
      });
      return { deleted, uninstalled: await readNamespace(t, ns), crdKept: crd.status };
    },
  },
  {
    id: 'olm/Subscription deleted and made again while its CSV stays',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-recreate';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable', installPlanApproval: 'Automatic' });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      await must(t, 'DELETE', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/alpha`);
      await until(t, 'the Subscription to go', () =>
        call(t, { path: `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/alpha` }).then((r) =>
          r.status === 404 ? true : undefined,
        ),
      );
      // Its InstallPlan goes with it, when the garbage collector gets to it (at once in the sandbox).
      await until(
        t,
        'its InstallPlan collected',
        async () =>
          (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`)).length === 0
            ? true
            : undefined,
        60_000,
      );
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable', installPlanApproval: 'Automatic' });
      await until(t, 'the new Subscription resolved or refused', async () =>
        (await subscriptionCondition(t, ns, 'alpha', 'ResolutionFailed')()) ||
        (await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/alpha`)).status
          ?.installedCSV
          ? true
          : undefined,
      );
      await settled(t, ns);
      const read = await readNamespace(t, ns);
      // Real OLM's solver lists the clauses of a conflict, and the candidates in them, in an order
      // that changes from run to run: what is said is compared, not in which order.
      const said = (m: string) =>
        m.startsWith('constraints not satisfiable: ')
          ? m
              .split(/[\s,]+/)
              .filter((w) => w !== 'and' && w !== 'or')
              .sort()
              .join(' ')
          : m;
      return {
        ...read,
        subscriptions: read.subscriptions.map((sub) => ({
          ...sub,
          conditions: sub.conditions.map((c) => ({ ...c, message: said(c.message) })),
        })),
      };
    },
  },
  {
    id: 'olm/AllNamespaces: copied into every namespace, disableCopiedCSVs on and off',
    run: async (t) => {
      const ns = 'operators';
      await subscribe(t, ns, 'gamma', { name: 'gamma', channel: 'stable' });
      await until(t, 'gamma.v1.0.0 to succeed', csvPhase(t, ns, 'gamma.v1.0.0', 'Succeeded'));
      const later = 'conf-olm-later';
      await namespace(t, later);
      await until(t, 'a copy in a namespace made later', csvPhase(t, later, 'gamma.v1.0.0', 'Succeeded', 'Copied'));
      await settled(t, later);
      const copied = (await readNamespace(t, later, true)).csvs;
      const olmConfig = async () => {
        const c = await must(t, 'GET', '/apis/operators.coreos.com/v1/olmconfigs/cluster');
        return {
          spec: c.spec,
          conditions: (
            (c.status?.conditions ?? []) as { type: string; status: string; reason: string; message: string }[]
          ).map((x) => ({ type: x.type, status: x.status, reason: x.reason, message: x.message })),
        };
      };
      await must(t, 'PATCH', '/apis/operators.coreos.com/v1/olmconfigs/cluster', {
        spec: { features: { disableCopiedCSVs: true } },
      });
      await until(t, 'the copy to go', csvGone(t, later, 'gamma.v1.0.0'));
      await until(t, 'DisabledCopiedCSVs', async () =>
        (await olmConfig()).conditions.some((c) => c.type === 'DisabledCopiedCSVs' && c.status === 'True')
          ? true
          : undefined,
      );
      const disabledEvents = async () =>
        (await list(t, `/api/v1/namespaces/${ns}/events`))
          .filter(
            (e) =>
              e.reason === 'DisabledCopiedCSVs' &&
              (e.involvedObject as { name?: string } | undefined)?.name === 'gamma.v1.0.0',
          )
          .map((e) => ({ type: e.type, message: e.message }));
      await until(t, 'a DisabledCopiedCSVs event', async () =>
        (await disabledEvents()).length ? true : undefined,
      ).catch(() => undefined);
      const disabled = {
        olmConfig: await olmConfig(),
        csvs: (await readNamespace(t, later, true)).csvs,
        events: await disabledEvents(),
      };
      await must(t, 'PATCH', '/apis/operators.coreos.com/v1/olmconfigs/cluster', {
        spec: { features: { disableCopiedCSVs: false } },
      });
      await until(t, 'the copy back', csvPhase(t, later, 'gamma.v1.0.0', 'Succeeded', 'Copied'));
      await until(t, 'DisabledCopiedCSVs False', async () =>
        (await olmConfig()).conditions.some((c) => c.type === 'DisabledCopiedCSVs' && c.status === 'False')
          ? true
          : undefined,
      );
      // Copies come back namespace by namespace; the condition says so once they all have.
      await until(
        t,
        'every copy back',
        async () =>
          (await olmConfig()).conditions.some(
            (c) => c.type === 'DisabledCopiedCSVs' && /present across the cluster/.test(c.message),
          )
            ? true
            : undefined,
        60_000,
      ).catch(() => undefined);
      const events = (await list(t, `/api/v1/namespaces/${ns}/events`))
        .filter((e) => (e.involvedObject as { name?: string } | undefined)?.name === 'gamma.v1.0.0')
        .map((e) => ({ reason: e.reason, type: e.type }))
        .filter((e) => e.reason !== 'InstallWaiting');
      return {
        copied,
        disabled,
        enabled: { olmConfig: await olmConfig(), csvs: (await readNamespace(t, later, true)).csvs },
        csvEvents: [...new Set(events.map((e) => `${e.type}/${e.reason}`))].sort(),
      };
    },
  },
  {
    id: "olm/Subscription config written into the operator's Deployment, and written again when it changes",
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-config';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'epsilon', {
        name: 'epsilon',
        channel: 'stable',
        installPlanApproval: 'Automatic',
        config: {
          env: [
            { name: 'LOG_LEVEL', value: 'debug' },
            { name: 'EXTRA', value: '1' },
          ],
          envFrom: [{ configMapRef: { name: 'settings' } }],
          // Only what the cluster's one (kwok) node satisfies: a pod that cannot be scheduled keeps
          // the CSV Installing, and OLM checks a Deployment's readiness before its spec hash.
          nodeSelector: { 'kubernetes.io/os': 'linux', type: 'kwok' },
          tolerations: [
            { key: 'bundle', operator: 'Exists' },
            { key: 'infra', operator: 'Equal', value: 'reserved', effect: 'NoSchedule' },
          ],
          resources: { requests: { cpu: '100m' }, limits: { memory: '256Mi' } },
          volumes: [
            {
              name: 'trusted-ca',
              configMap: { name: 'ca-bundle', items: [{ key: 'ca-bundle.crt', path: 'tls-ca-bundle.pem' }] },
            },
          ],
          volumeMounts: [{ name: 'trusted-ca', mountPath: '/etc/pki/ca-trust/extracted/pem', readOnly: true }],
          annotations: { 'team.example.com/owner': 'platform' },
        },
      });
      await until(t, 'epsilon.v1.0.0 to succeed', csvPhase(t, ns, 'epsilon.v1.0.0', 'Succeeded'));
      await settled(t, ns);
      /** What a person reads of the operator's Deployment: what the config touches. */
      const deployment = async () => {
        const d = await must(t, 'GET', `/apis/apps/v1/namespaces/${ns}/deployments/epsilon-operator`);
        const pod = (
          d.spec as { template: { metadata?: { annotations?: Record<string, string> }; spec: Record<string, unknown> } }
        ).template;
        const containers = (pod.spec.containers ?? []) as {
          name: string;
          env?: unknown;
          envFrom?: unknown;
          resources?: unknown;
          volumeMounts?: unknown;
        }[];
        return {
          containers: containers.map((c) => ({
            name: c.name,
            env: c.env,
            envFrom: c.envFrom,
            resources: c.resources,
            volumeMounts: c.volumeMounts,
          })),
          nodeSelector: pod.spec.nodeSelector,
          tolerations: pod.spec.tolerations,
          affinity: pod.spec.affinity,
          volumes: ((pod.spec.volumes ?? []) as { name: string; configMap?: { name: string; items?: unknown } }[]).map(
            (v) => ({ name: v.name, configMap: v.configMap?.name, items: v.configMap?.items }),
          ),
          annotation: d.metadata.annotations?.['team.example.com/owner'],
          podAnnotation: pod.metadata?.annotations?.['team.example.com/owner'],
          hashLabel: !!d.metadata.labels?.['olm.deployment-spec-hash'],
        };
      };
      const first = await deployment();
      const before = (
        await must(
          t,
          'GET',
          `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/clusterserviceversions/epsilon.v1.0.0`,
        )
      ).status?.conditions as { phase: string }[];
      await must(t, 'PATCH', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/epsilon`, {
        spec: {
          config: {
            env: [{ name: 'LOG_LEVEL', value: 'warn' }],
            resources: null,
            envFrom: null,
            affinity: {
              nodeAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: {
                  nodeSelectorTerms: [
                    { matchExpressions: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }] },
                  ],
                },
              },
            },
          },
        },
      });
      await until(t, 'the Deployment written again', async () => ((await deployment()).affinity ? true : undefined));
      await until(t, 'epsilon.v1.0.0 to succeed again', async () => {
        const c = await must(
          t,
          'GET',
          `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/clusterserviceversions/epsilon.v1.0.0`,
        );
        return c.status?.phase === 'Succeeded' && ((c.status?.conditions as unknown[]) ?? []).length > before.length
          ? true
          : undefined;
      });
      await settled(t, ns);
      const csv = await must(
        t,
        'GET',
        `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/clusterserviceversions/epsilon.v1.0.0`,
      );
      // The hashes in the message are OLM's own (a hash of its Go structs): their presence is what compares.
      const after = ((csv.status?.conditions ?? []) as { phase: string; reason: string; message: string }[])
        .slice(before.length)
        .map((c) => `${c.phase}/${c.reason}: ${c.message.replace(/hash=\w+/g, 'hash=…')}`)
        .filter((h) => !h.startsWith('Installing/InstallWaiting'));
      return { first, afterChange: await deployment(), transitions: after, phase: csv.status?.phase };
    },
  },
];
