// The rollout routes where the home cluster is not an Open Cluster Management hub (a single
// sandbox cluster; the sandbox fleet's first cluster is the hub), and their refusals: bad choices
// (each with its field's path) and missing CSRF change nothing. A hub's answers are tested in lib/server/rollouts/
// (rollout.sandbox.test.ts on the sandbox fleet, rollout.cluster.test.ts on a real one).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { NAMESPACE_TYPE } from '@/lib/k8s/core-kinds';
import { isKubeError } from '@/lib/k8s/errors';
import { routeSandbox, type ErrorBody } from '@/lib/server/testing/route-sandbox';

type Handler = (req: Request) => Promise<Response>;

const choices = {
  name: 'gatekeeper',
  hubNamespace: 'rollouts',
  olm: 'v0',
  package: 'gatekeeper-operator-product',
  installNamespace: 'gatekeeper-system',
  catalog: { name: 'demo', namespace: 'olm' },
  placement: { clusterSets: ['default'] },
  canary: { canary: 'true' },
  waveSize: 1,
};

describe('rollout routes on a cluster that is not an OCM hub', () => {
  const sb = routeSandbox();
  let list: Handler;
  let write: Handler;
  let preview: Handler;
  before(async () => {
    ({ GET: list, POST: write } = await import('./route'));
    ({ POST: preview } = await import('./preview/route'));
  });

  const noNamespace = async () => {
    try {
      await sb.admin.get(NAMESPACE_TYPE, 'rollouts');
      return false;
    } catch (err) {
      return isKubeError(err, 404);
    }
  };

  test('the list says the home cluster is not a hub', async () => {
    const { status, body } = await sb.call<ErrorBody>(list, '/api/fleet/rollouts');
    assert.equal(status, 404);
    assert.match(body.error.message, /not an Open Cluster Management hub/);
  });

  test('a preview says so too, and creates nothing', async () => {
    const { status, body } = await sb.call<ErrorBody>(preview, '/api/fleet/rollouts/preview', {
      method: 'POST',
      body: choices,
    });
    assert.equal(status, 404);
    assert.match(body.error.message, /ManifestWorkReplicaSets/);
    assert.ok(await noNamespace());
  });

  test('bad choices are refused with the field named, before the cluster is asked', async () => {
    const { status, body } = await sb.call<ErrorBody>(write, '/api/fleet/rollouts', {
      method: 'POST',
      body: { ...choices, waveSize: 0, name: 'Not A Name' },
    });
    assert.equal(status, 400);
    assert.match(body.error.message, /name/);
    assert.match(body.error.message, /waveSize/);
    assert.ok(await noNamespace());
  });

  test("choices the schema takes but a rollout cannot use are refused with each field's path", async () => {
    for (const handler of [preview, write]) {
      const { status, body } = await sb.call<ErrorBody>(handler, '/api/fleet/rollouts', {
        method: 'POST',
        body: { ...choices, name: 'gatekeeper-g2', canary: { canary: 'not a value!' }, progressDeadline: 'soon' },
      });
      assert.equal(status, 400);
      const details = (body.error as { details?: unknown }).details as { path: (string | number)[]; message: string }[];
      assert.deepEqual(
        details.map((d) => d.path),
        [['name'], ['canary', 'canary'], ['progressDeadline']],
      );
      // The words are kept, each in the message as before.
      assert.match(details[0]!.message, /may not end in -g and a number/);
      assert.match(body.error.message, /canary label: "not a value!" is not a label value/);
      assert.ok(await noNamespace());
    }
  });

  test('a write without the CSRF token is refused', async () => {
    const { status } = await sb.call<ErrorBody>(write, '/api/fleet/rollouts', {
      method: 'POST',
      body: choices,
      csrf: null,
    });
    assert.equal(status, 403);
    assert.ok(await noNamespace());
  });
});
