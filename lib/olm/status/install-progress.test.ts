import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ownedApisOf, stageOf, waitingUpgrade, type SubscriptionProgress } from './install-progress';
import { installPlanSummary } from './install-plan-status';

const base: SubscriptionProgress = {
  subscription: { metadata: { name: 'p', namespace: 'n' }, spec: { name: 'p', source: 'c', sourceNamespace: 'olm' } },
  conditions: [],
  upgrade: { kind: 'installing', label: 'Installing', detail: 'resolving', pendingApproval: [] },
};
const plan = (phase: string, approved: boolean, needsApproval = false): SubscriptionProgress['installPlan'] => ({
  name: 'install-1',
  summary: { phase, label: phase, needsApproval, approved, manual: true, csvNames: ['p.v1'], done: false },
  components: [],
});
const csv = (phase: string, reason = ''): SubscriptionProgress['csv'] => ({
  name: 'p.v1',
  phase,
  reason,
  status: { phase, reason, label: phase, detail: `${phase} in words`, severity: 'ok' },
  conditions: [],
});

test('an install moves through resolving, approval, installing and succeeded', () => {
  assert.equal(stageOf(base).stage, 'resolving');
  assert.equal(stageOf({ ...base, installPlan: plan('RequiresApproval', false, true) }).stage, 'approval');
  assert.equal(stageOf({ ...base, installPlan: plan('Installing', true) }).stage, 'installing');
  const installing = stageOf({
    ...base,
    installPlan: plan('Complete', true),
    csv: csv('Installing', 'InstallWaiting'),
  });
  assert.deepEqual(installing.stage, 'installing');
  assert.match(installing.detail, /p\.v1: Installing \(InstallWaiting\)/);
  assert.equal(stageOf({ ...base, installPlan: plan('Complete', true), csv: csv('Succeeded') }).stage, 'succeeded');
});

test('a plan OLM cannot run yet says why, in its words, while the install goes on', () => {
  // As OLM v0.38.0's catalog operator writes it when the namespace's OperatorGroup has not yet
  // listed its namespaces (pkg/lib/scoped/querier.go, syncInstallPlans): it tries again later.
  const summary = installPlanSummary({
    metadata: { name: 'install-1', namespace: 'n' },
    spec: { approval: 'Automatic', approved: true, clusterServiceVersionNames: ['p.v1'] },
    status: {
      phase: 'Installing',
      conditions: [
        {
          type: 'Installed',
          status: 'False',
          reason: 'InstallCheckFailed',
          message: 'no operator group found that is managing this namespace',
        },
      ],
    },
  });
  const waiting = stageOf({ ...base, installPlan: { name: 'install-1', summary, components: [] } });
  assert.equal(waiting.stage, 'installing');
  assert.equal(
    waiting.detail,
    'InstallPlan install-1 is installing; OLM says: no operator group found that is managing this namespace',
  );
});

test("failures in OLM's words: resolution, a failed plan, a failed CSV", () => {
  const resolution = stageOf({
    ...base,
    conditions: [
      { type: 'ResolutionFailed', status: 'True', reason: 'ConstraintsNotSatisfiable', message: 'no operators found' },
    ],
  });
  assert.equal(resolution.stage, 'failed');
  assert.match(resolution.detail, /ConstraintsNotSatisfiable: no operators found/);
  assert.equal(
    stageOf({
      ...base,
      installPlan: {
        ...plan('Failed', true)!,
        summary: { ...plan('Failed', true)!.summary, message: 'image pull failed' },
      },
    }).detail,
    'image pull failed',
  );
  assert.equal(
    stageOf({ ...base, csv: { ...csv('Failed', 'InstallCheckFailed')!, message: 'deployment not ready' } }).stage,
    'failed',
  );
});

test("after the install, the next version's plan waiting for approval is named; the install's own is not", () => {
  const installed = { ...base, csv: csv('Succeeded') };
  const waiting = plan('RequiresApproval', false, true)!;
  const next = { ...waiting, name: 'install-2', summary: { ...waiting.summary, csvNames: ['p.v2'] } };
  assert.deepEqual(waitingUpgrade({ ...installed, installPlan: next }), { plan: 'install-2', csvNames: ['p.v2'] });
  assert.equal(waitingUpgrade({ ...installed, installPlan: plan('Complete', true) }), undefined);
  assert.equal(
    waitingUpgrade({ ...base, csv: csv('Installing'), installPlan: next }),
    undefined,
    'not before it succeeded',
  );
  const upgrade = { ...base.upgrade, pendingApproval: ['install-3'] };
  const listed = { ...installed, installPlan: plan('Complete', true), upgrade };
  assert.deepEqual(waitingUpgrade(listed), { plan: 'install-3', csvNames: [] });
});

test('owned APIs are the CRDs, with the plural their create form needs', () => {
  const cluster = { group: 'pg.example.com', version: 'v1', kind: 'PostgresCluster', displayName: 'Postgres cluster' };
  const apis = ownedApisOf({
    providedApis: [
      { ...cluster, name: 'postgresclusters.pg.example.com', crd: true },
      { group: 'metrics.example.com', version: 'v1', kind: 'Usage', name: 'v1.metrics.example.com' },
    ],
  });
  assert.deepEqual(apis, [{ ...cluster, plural: 'postgresclusters' }]);
});
