// The pull settings from the console's environment (docs/running.md#bundle-images): the pull
// secret that applies to every bundle is NAMESPACE/NAME, as operator-controller's
// --global-pull-secret is; anything else turns pulls off with a reason an operator can act on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pullSettings } from './pull-settings';

const env = (more: Record<string, string> = {}) =>
  ({ NODE_ENV: 'test', OLM_CONSOLE_PULL_BUNDLE_IMAGES: 'true', ...more }) as NodeJS.ProcessEnv;

test('OLM_CONSOLE_PULL_SECRET names one secret by namespace and name', () => {
  const s = pullSettings(env({ OLM_CONSOLE_PULL_SECRET: 'olm/global-pull' }));
  assert.ok(!('off' in s));
  assert.deepEqual(s.pullSecret, { namespace: 'olm', name: 'global-pull' });
  const none = pullSettings(env());
  assert.ok(!('off' in none) && none.pullSecret === undefined);
});

test('a value that is not NAMESPACE/NAME turns pulls off, saying so', () => {
  for (const v of ['global-pull', 'olm/a/b', 'OLM/x', 'olm/', '/x', 'olm/bad_name'])
    assert.deepEqual(pullSettings(env({ OLM_CONSOLE_PULL_SECRET: v })), {
      off: `OLM_CONSOLE_PULL_SECRET is ${JSON.stringify(v)}, not NAMESPACE/NAME of a secret`,
    });
});
