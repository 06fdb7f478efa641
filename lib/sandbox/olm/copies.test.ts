// Copied CSVs follow their source through every phase OLM copies (operator-framework/api's
// IsUncopiable: only a CSV with no phase yet, or with reason Copied or an OperatorGroup failure, is
// not copied), not only once it has Succeeded: here the operator's Deployment takes a while, and
// the copy shows Installing meanwhile, with OLM's Copied reason and message.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { CSV_TYPE, type ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../olm/resources/subscription';
import { clientAs, ensureNamespace, subscribe, waitFor } from '../../server/testing/cluster';
import { withSandbox } from '../testing/sandbox-fixture';

describe('copied CSVs in every phase', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let kube: KubeClient;
  before(async () => {
    sb = await withSandbox({ deploymentDelayMs: 4000 });
    kube = clientAs(sb, 'admin');
    await ensureNamespace(kube, 'team1');
  });
  after(() => sb.close());

  test('while the source is Installing, its copy says Installing too', async () => {
    await subscribe(kube, { namespace: 'operators', package: 'certwarden', channel: 'stable' });
    const csv = await waitFor(
      'certwarden resolved',
      async () => (await kube.get<Subscription>(SUBSCRIPTION_TYPE, 'certwarden', 'operators')).status?.currentCSV,
    );
    const copy = await waitFor('a copy while installing', async () => {
      const source = await kube.get<ClusterServiceVersion>(CSV_TYPE, csv, 'operators').catch(() => undefined);
      if (source?.status?.phase !== 'Installing') return undefined;
      try {
        return await kube.get<ClusterServiceVersion>(CSV_TYPE, csv, 'team1');
      } catch (err) {
        if (isKubeError(err, 404)) return undefined;
        throw err;
      }
    });
    assert.equal(copy.status?.phase, 'Installing');
    assert.equal(copy.status?.reason, 'Copied');
    assert.equal(copy.status?.message, 'The operator is running in operators but is managing this namespace');
    await waitFor('the copy Succeeded with its source', async () =>
      (await kube.get<ClusterServiceVersion>(CSV_TYPE, csv, 'team1')).status?.phase === 'Succeeded' ? true : undefined,
    );
  });
});
