// The move against OLM v0 writing over its marks, on the sandbox. On the real cluster once, after
// the move marked Cachely's ServiceAccount, OLM v0.38.0's catalog operator wrote it again as an
// InstallPlan step (catalog/step_ensurer.go EnsureServiceAccount: the step's labels replace the
// live ones, annotations are kept), Helm's managed-by label went, and operator-controller refused
// the account as "already exists … cannot be managed"; the move rolled back. Here that write is
// made at the same point of the move, deterministically: right after the move's mark on the account
// lands, an admin writes the account as that step does. The move marks it again, because it is the
// very account it listed, and finishes. An account someone made anew under that name is never
// marked: the move fails, and the new account carries no mark. And while an InstallPlan of the
// namespace is being executed (one held in Installing: its OperatorGroup names an account that does
// not exist, which OLM's syncInstallPlans waits on), the move deletes nothing and marks nothing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SERVICE_ACCOUNT_TYPE } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import { CSV_TYPE } from '../../olm/resources/cluster-service-version';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../../olm/resources/install-plan';
import { OPERATOR_GROUP_TYPE } from '../../olm/resources/operator-group';
import { SUBSCRIPTION_TYPE } from '../../olm/resources/subscription';
import { withSandbox } from '../../sandbox/testing/sandbox-fixture';
import { clientAs, subscribe, waitFor, waitForCsv } from '../testing/cluster';
import { ACCOUNT, afterFirstMark, MANAGED_BY, rewriteAsOlmV0, type Account } from '../testing/olm-v0-writes';
import { applyMigration } from './migration-apply';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from './resources';

const CSV = 'cachely.v0.9.2';

async function cachelyInstalledByV0() {
  const sb = await withSandbox({ deploymentDelayMs: 10 });
  const admin = clientAs(sb, 'admin');
  await subscribe(admin, { namespace: 'operators', package: 'cachely', channel: 'alpha' });
  await waitForCsv(admin, 'operators', CSV);
  return { admin, close: () => sb.close() };
}

describe('the move when OLM v0 writes over its marks', () => {
  test('the account OLM v0 rewrote is marked again and the move reaches Installed', async () => {
    const { admin, close } = await cachelyInstalledByV0();
    try {
      const r = await applyMigration(
        afterFirstMark(admin, () => rewriteAsOlmV0(admin)),
        'operators',
        CSV,
        { waitMs: 15_000 },
      );
      assert.equal(r.ok, true, JSON.stringify(r));
      assert.equal(
        r.steps.find((s) => s.id === 'wait-installed')?.message,
        `ServiceAccount operators/${ACCOUNT} lost the marks for OLM v1 while it installed and was marked again`,
      );
      const ce = await admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, 'cachely');
      assert.deepEqual(ce.status?.install?.bundle, { name: CSV, version: '0.9.2' });
      const sa = await admin.get<Account>(SERVICE_ACCOUNT_TYPE, ACCOUNT, 'operators');
      assert.equal(sa.metadata.labels?.['olm.operatorframework.io/owner-name'], 'cachely');
    } finally {
      await close();
    }
  });

  test('an account made anew under that name is not marked; the move fails and rolls back', async () => {
    const { admin, close } = await cachelyInstalledByV0();
    try {
      let madeAnew: string | undefined;
      const replace = async () => {
        await admin.delete(SERVICE_ACCOUNT_TYPE, ACCOUNT, { namespace: 'operators' });
        const made = await admin.create<Account>(
          SERVICE_ACCOUNT_TYPE,
          { metadata: { name: ACCOUNT, namespace: 'operators', labels: { team: 'other' } } },
          { namespace: 'operators' },
        );
        madeAnew = made.metadata.uid;
      };
      const r = await applyMigration(afterFirstMark(admin, replace), 'operators', CSV, { waitMs: 15_000 });
      assert.equal(r.ok, false, JSON.stringify(r));
      assert.equal(
        r.steps.find((s) => s.id === 'wait-installed')?.message,
        `ServiceAccount operators/${ACCOUNT} was replaced since the plan; the new one is not what OLM v0 installed`,
      );
      const sa = await admin.get<Account>(SERVICE_ACCOUNT_TYPE, ACCOUNT, 'operators');
      assert.equal(sa.metadata.labels?.[MANAGED_BY], undefined);
      assert.equal(sa.metadata.annotations?.['meta.helm.sh/release-name'], undefined);
      // The account made anew, still: OLM v0, installing the CSV again, may write its labels over
      // (EnsureServiceAccount), but the move neither marked nor replaced it.
      assert.ok(madeAnew);
      assert.equal(sa.metadata.uid, madeAnew);
      // Moved back: the Subscription is made again, and OLM v0 installs the CSV again.
      await waitForCsv(admin, 'operators', CSV);
      await admin.get(CSV_TYPE, CSV, 'operators');
    } finally {
      await close();
    }
  });

  test('while an InstallPlan of the namespace is executing, nothing is deleted or marked', async () => {
    const { admin, close } = await cachelyInstalledByV0();
    try {
      await admin.patch(
        OPERATOR_GROUP_TYPE,
        'global-operators',
        { spec: { serviceAccountName: 'not-made-yet' } },
        { namespace: 'operators', type: 'merge' },
      );
      await subscribe(admin, { namespace: 'operators', package: 'certwarden', channel: 'stable' });
      const busy = await waitFor('an InstallPlan for certwarden held in Installing', async () => {
        const plans = (await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'operators' })).items;
        return plans.find(
          (p) =>
            p.status?.phase === 'Installing' &&
            p.spec.clusterServiceVersionNames?.some((c) => c.startsWith('certwarden')),
        );
      });
      const sub = await admin.get<Account>(SUBSCRIPTION_TYPE, 'cachely', 'operators');
      const r = await applyMigration(admin, 'operators', CSV, { waitMs: 15_000, plansWaitMs: 2_000 });
      assert.equal(r.ok, false, JSON.stringify(r));
      assert.equal(
        r.steps.find((s) => s.id === 'delete-subscription')?.message,
        `OLM v0 was still executing InstallPlan ${busy.metadata?.name ?? ''} in operators after 2 s; it may write ` +
          'the objects the move would mark, so nothing was taken over (try again once it is Complete or Failed)',
      );
      await admin.get(CSV_TYPE, CSV, 'operators');
      const still = await admin.get<Account>(SUBSCRIPTION_TYPE, 'cachely', 'operators');
      assert.equal(still.metadata.uid, sub.metadata.uid);
      const sa = await admin.get<Account>(SERVICE_ACCOUNT_TYPE, ACCOUNT, 'operators');
      assert.equal(sa.metadata.labels?.[MANAGED_BY], undefined);
    } finally {
      await close();
    }
  });

  test('a deleted CSV that does not go stops the move, naming the finalizer that holds it', async () => {
    const { admin, close } = await cachelyInstalledByV0();
    try {
      await admin.patch(
        CSV_TYPE,
        CSV,
        { metadata: { finalizers: ['example.com/audit'] } },
        { namespace: 'operators', type: 'merge' },
      );
      const r = await applyMigration(admin, 'operators', CSV, { waitMs: 15_000, settleMs: 0, csvWaitMs: 2_000 });
      assert.equal(r.ok, false, JSON.stringify(r));
      const held = r.steps.find((s) => s.id === 'orphan-csv')?.message ?? '';
      assert.match(
        held,
        new RegExp(`^the CSV ${CSV.replaceAll('.', '\\.')} was still there 2 s after it was deleted, `),
      );
      assert.match(held, /held by its finalizers: .*example\.com\/audit \(another controller’s\)/);
      // Nothing of OLM v1 was made, and the CSV is still the one being deleted.
      await assert.rejects(admin.get(CLUSTER_EXTENSION_TYPE, 'cachely'), (e) => isKubeError(e, 404));
      const csv = await admin.get<{ metadata: { deletionTimestamp?: string } }>(CSV_TYPE, CSV, 'operators');
      assert.ok(csv.metadata.deletionTimestamp, JSON.stringify(csv.metadata));
    } finally {
      await close();
    }
  });

  test('a CSV OLM v0 made again while v1 installs stops the move, which says so', async () => {
    const { admin, close } = await cachelyInstalledByV0();
    try {
      const live = await admin.get<{ metadata: Record<string, unknown>; spec: unknown }>(CSV_TYPE, CSV, 'operators');
      const again = { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'ClusterServiceVersion', spec: live.spec };
      const remake = async () => {
        await admin.create(
          CSV_TYPE,
          { ...again, metadata: { name: CSV, namespace: 'operators' } },
          { namespace: 'operators' },
        );
      };
      const r = await applyMigration(afterFirstMark(admin, remake), 'operators', CSV, { waitMs: 15_000, settleMs: 0 });
      assert.equal(r.ok, false, JSON.stringify(r));
      assert.match(
        r.steps.find((s) => s.id === 'wait-installed')?.message ?? '',
        new RegExp(
          `^OLM v0 began installing ${CSV.replaceAll('.', '\\.')} again \\(ClusterServiceVersion ${CSV.replaceAll('.', '\\.')}, uid `,
        ),
      );
    } finally {
      await close();
    }
  });
});
