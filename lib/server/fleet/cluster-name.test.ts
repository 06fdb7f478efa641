// `--cluster NAME=KUBECONFIG[:CONTEXT]` read as a person means it, and refused with the reason.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isClusterName, parseClusterFlag } from './cluster-name';

describe('--cluster NAME=KUBECONFIG[:CONTEXT]', () => {
  test('a name and a kubeconfig: its current context', () =>
    assert.deepEqual(parseClusterFlag('prod=/k/prod.yaml'), {
      ok: true,
      flag: { name: 'prod', kubeconfig: '/k/prod.yaml' },
    }));
  test('a context after the first colon, colons and all (an EKS ARN)', () =>
    assert.deepEqual(parseClusterFlag('eks=/k/eks:arn:aws:eks:eu-west-1:123:cluster/prod'), {
      ok: true,
      flag: { name: 'eks', kubeconfig: '/k/eks', context: 'arn:aws:eks:eu-west-1:123:cluster/prod' },
    }));
  for (const [value, why] of [
    ['/k/prod.yaml', /no NAME= before/],
    ['=/k/prod.yaml', /no NAME= before/],
    ['prod=', /no kubeconfig path/],
    ['prod=/k/p:', /an empty context/],
    ['pr od=/k/p', /the name must be letters/],
  ] as const) {
    test(`"${value}" is refused`, () => {
      const r = parseClusterFlag(value);
      assert.equal(r.ok, false);
      assert.match(!r.ok ? r.message : '', why);
    });
  }
  test('names tools give contexts are names', () => {
    for (const n of ['kind-dev', 'gke_proj_europe-west1_prod', 'admin@prod', 'arn:aws:eks:r:1:cluster/x'])
      assert.ok(isClusterName(n), n);
    for (const n of ['', '-x', 'a b', 'a?b', 'x'.repeat(254)]) assert.ok(!isClusterName(n), n);
  });
});
