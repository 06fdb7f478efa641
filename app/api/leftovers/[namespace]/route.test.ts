// What is left of a half-gone operator, through the routes against the sandbox: Flagpole whose
// Subscription was deleted (as by an uninstall that stopped there), with a flag held by a finalizer
// no one removes. A viewer sees every part refused with the cluster's reason; the admin previews
// a chosen cleanup and applies it; a delete the API server fails stops it and says what remains.
// Checked afterwards with the Kubernetes API.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import type { KubeClient } from '@/lib/k8s/client';
import { isKubeError } from '@/lib/k8s/errors';
import { kubeRequest } from '@/lib/k8s/http';
import type { Leftovers } from '@/lib/olm/install/leftovers';
import { CSV_TYPE } from '@/lib/olm/resources/cluster-service-version';
import { OPERATOR_GROUP_TYPE } from '@/lib/olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import type { CleanupResultStep, PlannedCleanup } from '@/lib/server/leftovers';
import { ensureNamespace, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

type ErrorBody = {
  error: { code: number; reason: string; message: string; details?: { steps?: CleanupResultStep[] } };
};
const FLAGS = { group: 'flagpole.example.com', version: 'v1', plural: 'flags', namespaced: true, kind: 'Flag' };
const CRD = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  namespaced: false,
  kind: 'CustomResourceDefinition',
};
const CRD_NAME = 'flags.flagpole.example.com';

describe('what is left of an operator, and its cleanup', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let GET: Handler;
  let POST: Handler;
  let PLAN: Handler;
  let admin: KubeClient;
  let csv: string;

  before(async () => {
    admin = sb.admin;
    await ensureNamespace(admin, 'flags');
    await ensureNamespace(admin, 'elsewhere');
    await admin.create(OPERATOR_GROUP_TYPE, {
      metadata: { name: 'flags-og', namespace: 'flags', labels: { 'olm-console.io/created-by': 'olm-console' } },
      spec: { targetNamespaces: ['flags'] },
    });
    await admin.create<Subscription>(SUBSCRIPTION_TYPE, {
      metadata: { name: 'flagpole', namespace: 'flags' },
      spec: {
        name: 'flagpole',
        source: 'olm-console-demo',
        sourceNamespace: 'olm',
        channel: 'stable',
        installPlanApproval: 'Automatic',
      },
    });
    csv = await waitFor(
      'flagpole installed',
      async () => (await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'flagpole', 'flags')).status?.installedCSV,
    );
    await waitForCsv(admin, 'flags', csv);
    await admin.create(
      FLAGS,
      {
        apiVersion: 'flagpole.example.com/v1',
        kind: 'Flag',
        metadata: { name: 'dark-mode', namespace: 'flags', finalizers: ['flagpole.example.com/audit'] },
      },
      { namespace: 'flags' },
    );
    await admin.create(
      FLAGS,
      { apiVersion: 'flagpole.example.com/v1', kind: 'Flag', metadata: { name: 'stray', namespace: 'elsewhere' } },
      { namespace: 'elsewhere' },
    );
    // The uninstall got as far as the Subscription.
    await admin.delete(SUBSCRIPTION_TYPE, 'flagpole', { namespace: 'flags' });
    ({ GET, POST } = await import('./route'));
    ({ POST: PLAN } = await import('./plan/route'));
  });

  const params = { namespace: 'flags' };
  const read = (user = 'admin') =>
    sb.call<{ leftovers: Leftovers } & ErrorBody>(GET, `/x?csv=${csv}`, { user, params });
  const plan = (parts: string[], user = 'admin') =>
    sb.call<{ plan: PlannedCleanup } & ErrorBody>(PLAN, '/x', { method: 'POST', user, body: { csv, parts }, params });
  const apply = (parts: string[], seen: string[], user = 'admin', csrf?: null) =>
    sb.call<{ steps: CleanupResultStep[] } & ErrorBody>(POST, '/x', {
      method: 'POST',
      user,
      body: { csv, parts, seen },
      csrf,
      params,
    });
  const exists = async (t: typeof CRD, name: string, ns?: string) => {
    try {
      await admin.get(t, name, ns);
      return true;
    } catch (err) {
      if (isKubeError(err, 404)) return false;
      throw err;
    }
  };
  const fault = (body: unknown) => {
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    return kubeRequest(kc, { method: 'POST', path: '/sandbox/faults', body, retry: 'none' });
  };

  test('what is left, and why: the CSV no Subscription names, the group, the CRD, its flags and the finalizer', async () => {
    const r = await read();
    assert.equal(r.status, 200);
    // The InstallPlan went with its only owner, the Subscription (garbage collection, docs/olm/uninstall.md#deleting-a-subscription).
    assert.deepEqual(
      r.body.leftovers.parts.map((p) => p.id),
      [
        `ClusterServiceVersion:${csv}`,
        'OperatorGroup:flags-og',
        `CustomResourceDefinition:${CRD_NAME}`,
        `Instances:${CRD_NAME}`,
        `Finalizers:${CRD_NAME}`,
      ],
    );
    const p = (id: string) => r.body.leftovers.parts.find((x) => x.id === id)!;
    assert.match(p(`ClusterServiceVersion:${csv}`).why[0]!, /No Subscription names it any more/);
    assert.equal(p(`Instances:${CRD_NAME}`).state, '2 instances: 1 in elsewhere, 1 in flags');
    assert.deepEqual(p(`Finalizers:${CRD_NAME}`).requires, [`Instances:${CRD_NAME}`, `ClusterServiceVersion:${csv}`]);
    assert.equal(
      r.body.leftovers.parts.every((x) => !x.refused),
      true,
      JSON.stringify(r.body.leftovers.parts.filter((x) => x.refused)),
    );
  });

  test("a viewer sees each part refused with the cluster's reason and cannot apply", async () => {
    const r = await read('bob');
    assert.equal(r.status, 200);
    const csvPart = r.body.leftovers.parts.find((x) => x.kind === 'ClusterServiceVersion')!;
    assert.match(csvPart.refused ?? '', /^you may not do this: /);
    const a = await apply([`ClusterServiceVersion:${csv}`], [`delete ClusterServiceVersion flags/${csv}`], 'bob');
    assert.equal(a.status, 409);
    assert.match(a.body.error.message, /ClusterServiceVersion .* cannot be cleaned up: you may not do this/);
    assert.equal(await exists(CSV_TYPE, csv, 'flags'), true);
  });

  test("CSRF: an apply without the session's token is refused", async () => {
    const a = await apply([`ClusterServiceVersion:${csv}`], [], 'admin', null);
    assert.equal(a.status, 403);
  });

  test("a failed delete stops the cleanup: what was done, what failed with the cluster's reason, what remains", async () => {
    const parts = [`Instances:${CRD_NAME}`, `ClusterServiceVersion:${csv}`];
    const pl = await plan(parts);
    assert.equal(pl.status, 200);
    assert.deepEqual(
      pl.body.plan.steps.map((s) => s.key),
      ['delete Flag elsewhere/stray', 'delete Flag flags/dark-mode', `delete ClusterServiceVersion flags/${csv}`],
    );
    // More failures than the client's retries: the API server keeps failing this delete.
    await fault({
      failDelete: {
        resource: 'clusterserviceversions',
        namespace: 'flags',
        times: 20,
        message: 'Internal error occurred: etcdserver: request timed out',
      },
    });
    const a = await apply(
      parts,
      pl.body.plan.steps.map((s) => s.key),
    );
    await fault({ failDelete: [] });
    assert.equal(a.status, 500);
    assert.equal(a.body.error.reason, 'InternalError');
    assert.match(
      a.body.error.message,
      /^delete ClusterServiceVersion flags\/.* failed: .*etcdserver: request timed out.*Done: delete Flag elsewhere\/stray, delete Flag flags\/dark-mode\. Still to do: delete ClusterServiceVersion/,
    );
    assert.deepEqual(
      a.body.error.details?.steps?.map((s) => s.outcome),
      ['deleted', 'deleted', 'failed'],
    );
    assert.equal(await exists(CSV_TYPE, csv, 'flags'), true);
    assert.equal(await exists(FLAGS, 'stray', 'elsewhere'), false);
    // dark-mode is held by its finalizer: now being deleted, and said so.
    const r = await read();
    assert.match(
      r.body.leftovers.parts.find((x) => x.kind === 'Finalizers')!.why[0]!,
      /flags\/dark-mode is being deleted since .* held by finalizer flagpole\.example\.com\/audit/,
    );
  });

  test('a stale preview is refused; the chosen cleanup applied goes in order, and the group not chosen stays', async () => {
    const parts = [`Finalizers:${CRD_NAME}`, `CustomResourceDefinition:${CRD_NAME}`];
    const stale = await apply(parts, ['delete Flag flags/dark-mode']);
    assert.equal(stale.status, 409);
    assert.match(stale.body.error.message, /changed since the preview/);
    const pl = await plan(parts);
    assert.deepEqual(
      pl.body.plan.steps.map((s) => s.key),
      [
        `delete ClusterServiceVersion flags/${csv}`,
        'remove-finalizers Flag flags/dark-mode',
        `delete CustomResourceDefinition ${CRD_NAME}`,
      ],
    );
    const a = await apply(
      parts,
      pl.body.plan.steps.map((s) => s.key),
    );
    assert.equal(a.status, 200, JSON.stringify(a.body));
    assert.deepEqual(
      a.body.steps.map((s) => s.outcome),
      ['deleted', 'finalizers-removed', 'deleted'],
    );
    await waitFor('the CRD and the CSV gone', async () =>
      !(await exists(CRD, CRD_NAME)) && !(await exists(CSV_TYPE, csv, 'flags')) ? true : undefined,
    );
    assert.equal(await exists(OPERATOR_GROUP_TYPE, 'flags-og', 'flags'), true);
    const left = await read();
    assert.deepEqual(
      left.body.leftovers.parts.map((p) => p.kind),
      ['OperatorGroup'],
    );
  });
});
