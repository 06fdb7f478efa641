// What counts as holding a rule, as kube-apiserver's escalation check counts it (component-helpers'
// auth/rbac/validation Covers, pkg/registry/rbac/validation CompactRules, CompactString).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PolicyRule } from './rbac';
import { describeMissing, uncoveredRules } from './rule-covers';

const rule = (verbs: string[], resources: string[], apiGroups = [''], more: Partial<PolicyRule> = {}): PolicyRule => ({
  verbs,
  resources,
  apiGroups,
  ...more,
});
const held = (owner: PolicyRule[], wanted: PolicyRule[]) => uncoveredRules(owner, wanted).length === 0;

describe('holding a rule', () => {
  test('a wildcard is held only as a wildcard', () => {
    assert.equal(held([rule(['*'], ['*'], ['*'])], [rule(['get'], ['pods'])]), true);
    assert.equal(held([rule(['get', 'list'], ['pods'])], [rule(['*'], ['pods'])]), false);
    assert.equal(held([rule(['get'], ['pods', 'secrets'])], [rule(['get'], ['*'])]), false);
    assert.equal(held([rule(['get'], ['pods'], ['', 'apps'])], [rule(['get'], ['pods'], ['*'])]), false);
  });

  test('a subresource is held by itself, by "*/sub" or by "*", not by "resource/*"', () => {
    const scale = [rule(['update'], ['deployments/scale'], ['apps'])];
    assert.equal(held([rule(['update'], ['*/scale'], ['apps'])], scale), true);
    assert.equal(held([rule(['update'], ['deployments/*'], ['apps'])], scale), false);
    assert.equal(held([rule(['update'], ['deployments'], ['apps'])], scale), false);
  });

  test('a rule without resourceNames is held only by one without them', () => {
    const named = rule(['get'], ['secrets'], [''], { resourceNames: ['a'] });
    assert.equal(held([rule(['get'], ['secrets'])], [named]), true);
    assert.equal(held([named], [rule(['get'], ['secrets'])]), false);
    assert.equal(held([named], [rule(['get'], ['secrets'], [''], { resourceNames: ['a', 'b'] })]), false);
  });

  test('a non-resource URL is held by itself or a trailing-star prefix', () => {
    const etcd = [{ verbs: ['get'], nonResourceURLs: ['/healthz/etcd'] }];
    assert.equal(held([{ verbs: ['get'], nonResourceURLs: ['/healthz/*'] }], etcd), true);
    assert.equal(held([{ verbs: ['get'], nonResourceURLs: ['/healthz'] }], etcd), false);
    assert.equal(held([rule(['*'], ['*'], ['*'])], etcd), false);
  });
});

describe('the missing rules as the API server lists them', () => {
  test('one line per group, resource and name with its verbs, URLs one by one, sorted', () => {
    const missing = uncoveredRules(
      [],
      [
        rule(['get', 'list'], ['pods', 'secrets']),
        { verbs: ['get', 'post'], nonResourceURLs: ['/metrics'] },
        rule(['delete'], ['deployments'], ['apps'], { resourceNames: ['web', 'db'] }),
      ],
    );
    assert.equal(
      describeMissing(missing),
      [
        '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}',
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}',
        '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["db"], Verbs:["delete"]}',
        '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["web"], Verbs:["delete"]}',
        '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
        '{NonResourceURLs:["/metrics"], Verbs:["post"]}',
      ].join('\n'),
    );
  });
});
