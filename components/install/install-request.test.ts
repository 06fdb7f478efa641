// The wizard's request body as the server receives it, from choices a person makes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { OpenShiftOptionsView } from '@/lib/olm/install/openshift-options';
import { installRequest, type InstallChoices } from './install-request';
import { emptyOpenShiftChoice } from './openshift-option-fields';

const choices = (over: Partial<InstallChoices> = {}): InstallChoices => ({
  catalog: { namespace: 'olm', name: 'olm-console-demo' },
  package: 'quillmq',
  channel: 'stable',
  version: 'quillmq.v2.0.0',
  namespace: 'team1',
  installMode: 'OwnNamespace',
  watched: [],
  approval: 'Automatic',
  openshift: emptyOpenShiftChoice,
  ...over,
});

describe('the install request', () => {
  test('an own-namespace install sends what was chosen and no watched namespaces', () => {
    assert.deepEqual(installRequest(choices({ watched: ['stale'] })), {
      catalog: { namespace: 'olm', name: 'olm-console-demo' },
      package: 'quillmq',
      channel: 'stable',
      version: 'quillmq.v2.0.0',
      namespace: 'team1',
      installMode: 'OwnNamespace',
      approval: 'Automatic',
    });
  });

  test('single and multi namespace installs send the namespaces to watch', () => {
    const single = installRequest(choices({ installMode: 'SingleNamespace', watched: ['team1'], namespace: 'ops' }));
    assert.deepEqual(single?.targetNamespaces, ['team1']);
    const multi = installRequest(choices({ installMode: 'MultiNamespace', watched: ['a', 'b'] }));
    assert.deepEqual(multi?.targetNamespaces, ['a', 'b']);
  });

  test("the person's approval is sent as chosen: the planner decides when Manual is forced", () => {
    assert.equal(installRequest(choices({ approval: 'Manual' }))?.approval, 'Manual');
    assert.equal(installRequest(choices({ approval: 'Automatic' }))?.approval, 'Automatic');
  });

  test('a namespace that is no namespace name makes no request', () => {
    assert.equal(installRequest(choices({ namespace: 'Team_1' })), undefined);
    assert.equal(installRequest(choices({ namespace: '' })), undefined);
    assert.equal(installRequest(choices({ namespace: 'a'.repeat(64) })), undefined);
  });

  test('a service account is sent only with a valid name; an empty config is not sent', () => {
    const good = installRequest(choices({ serviceAccount: { name: 'deployer', grant: false }, config: {} }));
    assert.deepEqual(good?.serviceAccount, { name: 'deployer', grant: false });
    assert.equal('config' in (good ?? {}), false);
    const bad = installRequest(choices({ serviceAccount: { name: 'Deployer!', grant: true } }));
    assert.equal('serviceAccount' in (bad ?? {}), false);
    const config = installRequest(choices({ config: { nodeSelector: { zone: 'a' } } }));
    assert.deepEqual(config?.config, { nodeSelector: { zone: 'a' } });
  });

  test("OpenShift's options are sent only for what the last plan offered", () => {
    const view = {
      tokenAuth: { offered: false, reason: 'not a short-lived token cluster', fields: [] },
      plugins: { offered: true, names: ['quill-plugin'], alreadyEnabled: [], trusted: true },
      monitoring: { offered: false, reason: 'not an openshift- namespace' },
    } as unknown as OpenShiftOptionsView;
    const withView = installRequest(choices({ openshift: { ...emptyOpenShiftChoice, monitoring: true } }), view);
    assert.deepEqual(withView?.enablePlugins, ['quill-plugin']);
    assert.equal('clusterMonitoring' in (withView ?? {}), false);
    assert.equal('enablePlugins' in (installRequest(choices()) ?? {}), false);
  });
});
