// Permissions answered by the sandbox's RBAC through SelfSubjectAccessReview, per seeded user.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../k8s/client';
import { withSandbox } from '../sandbox/testing/sandbox-fixture';
import { consolePermissions } from './permissions';

describe('consolePermissions', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  const clientFor = (user: string) => {
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigs[user]!);
    return new KubeClient(kc);
  };
  before(async () => {
    sb = await withSandbox({ demo: false });
  });
  after(() => sb.close());

  test('a namespace admin may install and uninstall there, not approve InstallPlans or create namespaces', async () => {
    const perms = new Map((await consolePermissions(clientFor('alice'), 'team1')).map((p) => [p.action, p]));
    assert.equal(perms.get('install')?.allowed, true);
    assert.equal(perms.get('uninstall')?.allowed, true);
    assert.equal(perms.get('changeSubscription')?.allowed, true);
    // OLM's aggregated edit role grants no InstallPlan or OperatorGroup writes.
    assert.equal(perms.get('approveInstallPlan')?.allowed, false);
    assert.match(perms.get('approveInstallPlan')?.reason ?? '', /^you may not patch installplans in namespace team1$/);
    assert.equal(perms.get('createOperatorGroup')?.allowed, false);
    assert.equal(perms.get('createNamespace')?.allowed, false);
    assert.match(perms.get('createNamespace')?.reason ?? '', /^you may not create namespaces$/);
  });

  test('elsewhere the same person may do nothing; the admin may do everything', async () => {
    assert.ok((await consolePermissions(clientFor('alice'), 'default')).every((p) => !p.allowed));
    assert.ok((await consolePermissions(clientFor('admin'), 'default')).every((p) => p.allowed));
  });
});
