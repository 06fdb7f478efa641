// The way back from a bad upgrade, and what OLM will refuse on the way: the data-loss rule is
// OLM's (lib/crd/storage.go SafeStorageVersionUpgrade, v0.38.0: a stored version the new CRD does
// not list fails the InstallPlan with "risk of data loss updating ..."); pruning of fields a
// structural schema does not name is the API server's (CustomResourceDefinition docs, "Field pruning").
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Subscription } from '../resources/subscription';
import {
  planRollback,
  schemaPaths,
  type BundleCrd,
  type ClusterCrd,
  type JsonSchema,
  type RollbackFacts,
} from './rollback';

const sub: Subscription = {
  metadata: { name: 'pgpilot', namespace: 'pg', labels: { 'operators.coreos.com/pgpilot.pg': '' } },
  spec: {
    name: 'pgpilot',
    source: 'demo',
    sourceNamespace: 'olm',
    channel: 'stable',
    installPlanApproval: 'Automatic',
    config: { env: [{ name: 'A', value: '1' }] },
  },
};
const schema = (spec: Record<string, JsonSchema>) => ({
  openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: spec } } },
});

const facts = (over: Partial<RollbackFacts> = {}): RollbackFacts => ({
  namespace: 'pg',
  subscription: sub,
  installed: { csvName: 'pgpilot.v1.4.0', version: '1.4.0' },
  target: { csvName: 'pgpilot.v1.3.0', version: '1.3.0' },
  earlier: [
    { csvName: 'pgpilot.v1.3.0', version: '1.3.0' },
    { csvName: 'pgpilot.v1.2.0', version: '1.2.0' },
  ],
  clusterCrds: [],
  targetCrds: [],
  denied: {},
  ...over,
});

describe('planRollback', () => {
  test('the steps, and the Subscription made again at the earlier version under Manual approval, keeping its config', () => {
    const p = planRollback(facts());
    assert.deepEqual(
      p.steps.map((s) => `${s.action} ${s.kind} ${s.name}`),
      ['delete Subscription pgpilot', 'delete ClusterServiceVersion pgpilot.v1.4.0', 'create Subscription pgpilot'],
    );
    assert.deepEqual(p.subscription.spec, {
      name: 'pgpilot',
      source: 'demo',
      sourceNamespace: 'olm',
      channel: 'stable',
      startingCSV: 'pgpilot.v1.3.0',
      installPlanApproval: 'Manual',
      config: { env: [{ name: 'A', value: '1' }] },
    });
    assert.equal(p.blocked, false);
  });

  test('a version that is not an earlier one of the channel is refused', () => {
    const p = planRollback(facts({ target: { csvName: 'pgpilot.v1.5.0' } }));
    assert.equal(p.blocked, true);
    assert.match(p.risks[0]!.message, /not an earlier version .* earlier ones: 1\.3\.0, 1\.2\.0/);
  });

  test('a stored version the earlier CRD lacks: OLM fails the plan, in its words', () => {
    const cluster: ClusterCrd = {
      name: 'postgresclusters.pgpilot.example.com',
      versions: [
        { name: 'v1', served: true },
        { name: 'v2', served: true, storage: true },
      ],
      storedVersions: ['v1', 'v2'],
    };
    const target: BundleCrd = {
      name: 'postgresclusters.pgpilot.example.com',
      versions: [{ name: 'v1', served: true, storage: true }],
    };
    const p = planRollback(facts({ clusterCrds: [cluster], targetCrds: [target] }));
    assert.equal(p.blocked, true);
    assert.ok(
      p.risks.some(
        (r) =>
          r.level === 'blocker' &&
          r.message ===
            'OLM would fail the InstallPlan: risk of data loss updating "postgresclusters.pgpilot.example.com": new CRD removes version v2 that is listed as a stored version on the existing CRD',
      ),
    );
  });

  test('a field the earlier schema lacks is named once, with what happens to it', () => {
    const cluster: ClusterCrd = {
      name: 'a.example.com',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: schema({
            instances: { type: 'integer' },
            backups: { type: 'object', properties: { schedule: { type: 'string' } } },
          }),
        },
      ],
      storedVersions: ['v1'],
    };
    const target: BundleCrd = {
      name: 'a.example.com',
      versions: [{ name: 'v1', served: true, storage: true, schema: schema({ instances: { type: 'integer' } }) }],
    };
    const p = planRollback(facts({ clusterCrds: [cluster], targetCrds: [target] }));
    assert.equal(p.blocked, false);
    const w = p.risks.filter((r) => r.level === 'warning');
    assert.equal(w.length, 1);
    assert.match(
      w[0]!.message,
      /^a\.example\.com v1: spec\.backups is not in 1\.3\.0's schema; instances that set it lose it when next written/,
    );
  });

  test('CRDs that cannot be compared, and permissions the person lacks, are said', () => {
    const p = planRollback(
      facts({
        targetCrds: 'its bundle is an image, unpacked only when OLM installs it',
        denied: { deleteCsv: 'RBAC: bob may not' },
      }),
    );
    assert.equal(p.blocked, true);
    assert.ok(
      p.risks.some(
        (r) => r.level === 'info' && /1\.3\.0's CRDs cannot be compared: its bundle is an image/.test(r.message),
      ),
    );
    assert.ok(
      p.risks.some(
        (r) =>
          r.level === 'blocker' && /may not delete the ClusterServiceVersion in pg: RBAC: bob may not/.test(r.message),
      ),
    );
  });
});

test('schemaPaths names what spec and status hold', () => {
  assert.deepEqual(
    schemaPaths({
      type: 'object',
      properties: {
        metadata: { type: 'object' },
        spec: {
          type: 'object',
          properties: { a: { type: 'array', items: { type: 'object', properties: { b: { type: 'string' } } } } },
        },
      },
    }),
    ['spec.a', 'spec.a.b'],
  );
});
