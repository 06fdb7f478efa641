// A rollout's generations: what writing a template does to the sets the hub has (OCM v1.0.0
// judges a cluster by conditions it does not tie to the work's spec: generations.ts), and which
// set is the rollout now.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chainOf, currentOf, nextWrite, setName, type SetLike } from './generations';

const template = (channel: string) => ({
  workload: { manifests: [{ kind: 'Subscription', spec: { channel } }] },
  deleteOption: { propagationPolicy: 'Orphan' },
});

/** A set of rollout `rollout` at `generation` with a template for `channel`. */
function set(rollout: string, generation: number | undefined, channel: string, deleting = false): SetLike {
  return {
    metadata: {
      name: setName(rollout, generation ?? 1),
      uid: `uid-${generation ?? 1}`,
      labels: {
        'olm-console.io/rollout': rollout,
        ...(generation === undefined ? {} : { 'olm-console.io/rollout-generation': String(generation) }),
      },
      ...(deleting ? { deletionTimestamp: '2026-11-29T18:00:00Z' } : {}),
    },
    spec: { manifestWorkTemplate: template(channel) },
  };
}

test('a new rollout is generation 1, named after the rollout', () =>
  assert.deepEqual(nextWrite([], template('stable')), { kind: 'create', generation: 1 }));

test('the same template again updates the current set in place', () =>
  assert.deepEqual(nextWrite([set('gk', 2, 'stable')], template('stable')), {
    kind: 'update',
    generation: 2,
    current: 'gk-g2',
  }));

test('another template is an upgrade: the next generation, replacing the current set', () =>
  assert.deepEqual(nextWrite(chainOf('gk', [set('gk', 1, 'stable'), set('gk', 2, 'fast')]), template('candidate')), {
    kind: 'upgrade',
    generation: 3,
    replaces: 'gk-g2',
  }));

test('a set written before generations existed (no generation label) is generation 1', () =>
  assert.deepEqual(nextWrite([set('gk', undefined, 'stable')], template('fast')), {
    kind: 'upgrade',
    generation: 2,
    replaces: 'gk',
  }));

test('a template equal but for empty values and key order is the same template', () =>
  assert.equal(
    nextWrite(
      [
        {
          ...set('gk', 1, 'stable'),
          spec: {
            manifestWorkTemplate: {
              deleteOption: { propagationPolicy: 'Orphan' },
              manifestConfigs: [],
              workload: { manifests: [{ spec: { channel: 'stable' }, kind: 'Subscription' }] },
            },
          },
        },
      ],
      template('stable'),
    ).kind,
    'update',
  ));

test('a set being deleted is not the rollout now; once only such sets are left, writing starts a new one', () => {
  const chain = chainOf('gk', [set('gk', 1, 'stable', true)]);
  assert.equal(currentOf(chain), undefined);
  assert.deepEqual(nextWrite(chain, template('stable')), { kind: 'create', generation: 2 });
});

test("another rollout's sets are not part of the chain, whatever their names", () =>
  assert.deepEqual(
    chainOf('gk', [set('gk', 1, 'stable'), set('gk-g2', 1, 'stable'), set('gk', 2, 'fast')]).map(
      (s) => `${s.metadata.name} of ${s.metadata.labels?.['olm-console.io/rollout']}`,
    ),
    ['gk-g2 of gk', 'gk of gk'],
  ));
