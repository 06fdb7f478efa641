// Issue 40's probe against the sandbox: certwarden installed by OLM v0 in `operators`, pgpilot by
// OLM v0 in team2 with its PostgresCluster team2-prod-db, and a second ClusterCatalog of priority 10
// whose certwarden.v1.1.0 also ships team2's CRD and a ClusterRole named aggregate-olm-edit. The
// move must not hand either to OLM v1: the plan says it cannot move and names both, the move is
// refused with the same reasons, and both objects keep every label and annotation they had.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { CRD_TYPE, rbacType } from '@/lib/k8s/core-kinds';
import { isKubeError } from '@/lib/k8s/errors';
import { CSV_TYPE } from '@/lib/olm/resources/cluster-service-version';
import { SUBSCRIPTION_TYPE } from '@/lib/olm/resources/subscription';
import type { MigrationResult, MigrationView } from '@/lib/api/olm-v1-migration';
import { CLUSTER_CATALOG_TYPE, CLUSTER_EXTENSION_TYPE } from '@/lib/server/olm-v1/resources';
import { subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { FOREIGN_CRD, SHARED_ROLE, writeForeignBundleCatalog } from '@/lib/server/testing/foreign-bundle-catalog';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

const CSV = 'certwarden.v1.1.0';
const PROBE = 'probe-catalog';
const PROBE_IMAGE = 'quay.example.com/probe/catalog:latest';
const PG = {
  group: 'pgpilot.example.com',
  version: 'v1',
  plural: 'postgresclusters',
  namespaced: true,
  kind: 'PostgresCluster',
};

type Meta = { metadata: { labels?: Record<string, string>; annotations?: Record<string, string> } };
const marks = async (admin: KubeClient) => {
  const [crd, role] = await Promise.all([
    admin.get<Meta>(CRD_TYPE, FOREIGN_CRD),
    admin.get<Meta>(rbacType('ClusterRole'), SHARED_ROLE),
  ]);
  return [crd, role].map((o) => ({ labels: o.metadata.labels ?? {}, annotations: o.metadata.annotations ?? {} }));
};

describe('a move whose catalog bundle ships what is not the operator’s', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0, catalogImages: { [PROBE_IMAGE]: writeForeignBundleCatalog(PROBE) } });
  let POST: Handler;
  let PLAN: Handler;
  let admin: KubeClient;
  before(async () => {
    ({ POST } = await import('./route'));
    ({ POST: PLAN } = await import('./plan/route'));
    admin = sb.admin;
    await subscribe(admin, { namespace: 'operators', package: 'certwarden', channel: 'stable' });
    await subscribe(admin, { namespace: 'team2', package: 'pgpilot', channel: 'stable', targets: ['team2'] });
    await waitForCsv(admin, 'operators', CSV);
    await waitForCsv(admin, 'team2', 'pgpilot.v1.4.0');
    await admin.create(
      PG,
      {
        apiVersion: 'pgpilot.example.com/v1',
        kind: 'PostgresCluster',
        metadata: { name: 'team2-prod-db', namespace: 'team2' },
        spec: {},
      },
      { namespace: 'team2' },
    );
    await admin.create(CLUSTER_CATALOG_TYPE, {
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterCatalog',
      metadata: { name: PROBE },
      spec: { priority: 10, source: { type: 'Image', image: { ref: PROBE_IMAGE } } },
    });
    await waitFor(`ClusterCatalog ${PROBE} serving`, async () => {
      const c = await admin.get<{ status?: { conditions?: { type: string; status: string }[] } }>(
        CLUSTER_CATALOG_TYPE,
        PROBE,
      );
      return c.status?.conditions?.some((x) => x.type === 'Serving' && x.status === 'True') ? true : undefined;
    });
  });

  const path = `/api/operators/operators/${CSV}/migrate-to-v1`;
  const params = { namespace: 'operators', name: CSV };
  const expected = [
    {
      code: 'not-installed-by-v0',
      message: `CustomResourceDefinition ${FOREIGN_CRD} exists and OLM v0 did not install it for ${CSV}`,
      object: { kind: 'CustomResourceDefinition', name: FOREIGN_CRD },
    },
    {
      code: 'shared-role',
      message:
        `ClusterRole ${SHARED_ROLE} is one of Kubernetes’ or OLM’s shared roles (its name starts with aggregate-); ` +
        'a move never takes it over',
      object: { kind: 'ClusterRole', name: SHARED_ROLE },
    },
  ];

  test('the plan says it cannot move, naming team2’s CRD and OLM’s shared role', async () => {
    const { status, body } = await sb.call<MigrationView>(PLAN, `${path}/plan`, { method: 'POST', body: {}, params });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.canMove, false, JSON.stringify(body));
    assert.deepEqual(body.reasons, expected);
    assert.equal(body.steps, undefined);
  });

  test('the move is refused with the same reasons, and nothing changes', async () => {
    const before = await marks(admin);
    const { status, body } = await sb.call<MigrationResult & ErrorBody & { error: { reasons?: unknown } }>(POST, path, {
      method: 'POST',
      body: {},
      params,
    });
    assert.equal(status, 409, JSON.stringify(body));
    assert.match(body.error.message, new RegExp(`CustomResourceDefinition ${FOREIGN_CRD} exists`));
    assert.match(body.error.message, new RegExp(`ClusterRole ${SHARED_ROLE} is one of`));
    assert.deepEqual(await marks(admin), before);
    await admin.get(SUBSCRIPTION_TYPE, 'certwarden', 'operators');
    await admin.get(CSV_TYPE, CSV, 'operators');
    await admin.get(PG, 'team2-prod-db', 'team2');
    await assert.rejects(admin.get(CLUSTER_EXTENSION_TYPE, 'certwarden'), (e) => isKubeError(e, 404));
  });
});
