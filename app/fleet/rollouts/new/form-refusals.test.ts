// The rollout form puts each refusal of the rollout routes beside the field it is about: the
// answers here are the preview route's own, asked of a sandbox with bad choices.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { ApiErrorBody } from '@/lib/client/api';
import { routeSandbox } from '@/lib/server/testing/route-sandbox';
import { choicesOf, fieldProblemsOf, type RolloutForm } from '@/components/fleet/rollout-form-state';

type Handler = (req: Request) => Promise<Response>;

/** A form as a person fills it, with what a test changes. */
const form = (change: Partial<RolloutForm> = {}): RolloutForm => ({
  name: 'certwarden',
  hubNamespace: 'rollouts',
  olm: 'v0',
  package: 'certwarden',
  catalog: 'olm/olm-console-demo',
  channel: 'stable',
  version: '',
  approval: 'Automatic',
  installNamespace: 'certwarden',
  clusterSets: 'default',
  labels: '',
  claims: [],
  canary: 'canary=true',
  waveSize: '1',
  progressDeadline: '',
  minSuccessTime: '',
  policy: { on: false, namespace: '', allowedVersions: '', upgradeApproval: 'Automatic' },
  ...change,
});

describe("the rollout form and the routes' refusals", () => {
  const sb = routeSandbox();
  let preview: Handler;
  before(async () => {
    ({ POST: preview } = await import('@/app/api/fleet/rollouts/preview/route'));
  });

  const refusal = async (f: RolloutForm) => {
    const built = choicesOf(f);
    assert.ok('choices' in built, 'the form reads as choices');
    const { status, body } = await sb.call<{ error: ApiErrorBody }>(preview, '/api/fleet/rollouts/preview', {
      method: 'POST',
      body: built.choices,
    });
    assert.equal(status, 400);
    return fieldProblemsOf(body.error);
  };

  test("a name the API server would refuse is said beside the name, in the route's words", async () => {
    const { fields, rest } = await refusal(form({ name: 'Not A Name', waveSize: '0' }));
    assert.match(fields.name?.join() ?? '', /lowercase letters, digits and "-"/);
    assert.match(fields.waveSize?.join() ?? '', /1 or more/);
    assert.deepEqual(rest, []);
  });

  test('a duration OCM would not read is said beside that duration', async () => {
    const { fields, rest } = await refusal(form({ progressDeadline: '10 minutes' }));
    assert.match(fields.progressDeadline?.join() ?? '', /"10 minutes" must be a number and h, m or s/);
    assert.equal(fields.minSuccessTime, undefined);
    assert.deepEqual(rest, []);
  });

  test('a label key that is no label key is said beside the canary', async () => {
    const { fields } = await refusal(form({ canary: 'not a key!=true' }));
    assert.match(fields.canary?.join() ?? '', /is not a label key/);
  });

  test('a claim asked In without values is said beside the claims', async () => {
    const { fields } = await refusal(
      form({ claims: [{ key: 'region.open-cluster-management.io', operator: 'In', values: '' }] }),
    );
    assert.match(fields.claims?.join() ?? '', /In needs values/);
  });

  test('an OperatorPolicy without the namespace it goes to is said beside the policy', async () => {
    const policy = { on: true, namespace: '', allowedVersions: '', upgradeApproval: 'None' as const };
    const { fields, rest } = await refusal(form({ policy }));
    assert.match(fields.operatorPolicy?.join() ?? '', /must not be empty/);
    assert.deepEqual(rest, []);
  });

  test('text that cannot be read as choices is said before anything is sent', () => {
    const built = choicesOf(form({ labels: 'env', waveSize: 'two' }));
    assert.ok('problems' in built);
    assert.match(built.problems.labels?.join() ?? '', /"env" is not key=value/);
    assert.match(built.problems.waveSize?.join() ?? '', /number/);
  });

  test('a refusal that is not about the choices stays above the form', () => {
    const { fields, rest } = fieldProblemsOf({ code: 404, reason: 'NotFound', message: 'not a hub' });
    assert.deepEqual([fields, rest], [{}, ['not a hub']]);
  });
});
