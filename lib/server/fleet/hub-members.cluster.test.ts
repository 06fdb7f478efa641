// Whether the home cluster is an OCM hub, on the real cluster (`npm run cluster`, which runs no OCM
// without --fleet): kube-apiserver refuses alice and bob, who may not list ManagedClusters, with a
// 403 although it serves no such API, and the console must still tell them it is no hub: their
// fleet index and navigation say so, and a later read does not turn into "a hub you may not read".
// Skipped with the reason where the cluster's programs are not built.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from '../../../e2e/support/real-cluster';
import { hubPageState } from '@/components/shell/nav-items';
import type { FleetIndex } from '@/lib/api/fleet';
import { isKubeError } from '@/lib/k8s/errors';
import { clientAs } from '@/lib/server/testing/cluster';
import { consoleRequest } from '@/lib/server/testing/console-request';
import { MANAGED_CLUSTER_TYPE, withHubMembers } from './hub-members';
import { fleetMembers } from './members';
import { fleetPerson } from './person';

const skip = clusterProgramsMissing();
if (skip) test('whether the real cluster is a hub, for people who may not list ManagedClusters', (t) => t.skip(skip));
else
  describe('the real cluster without OCM, for people who may not list ManagedClusters', () => {
    let cluster: RealCluster;
    let index: (req: Request) => Promise<Response>;

    before(async () => {
      cluster = await startRealCluster([], 240_000, ['--no-olm-v1']);
      process.env.OLM_CONSOLE_KUBECONFIG = cluster.kubeconfigPath;
      process.env.OLM_CONSOLE_AUTH = 'token';
      process.env.OLM_CONSOLE_WARM_INDEX = 'false';
      index = (await import('@/app/api/fleet/route')).GET;
    });
    after(async () => cluster?.stop());

    test('kube-apiserver refuses them the list of an API it does not serve', async () => {
      for (const user of ['alice', 'bob'])
        await assert.rejects(clientAs(cluster, user).list(MANAGED_CLUSTER_TYPE), (err) => isKubeError(err, 403));
      await assert.rejects(clientAs(cluster, 'admin').list(MANAGED_CLUSTER_TYPE), (err) => isKubeError(err, 404));
    });

    test('their index and navigation say it is no hub, now and on later reads', async () => {
      for (const user of ['alice', 'bob']) {
        const res = await index(consoleRequest('/api/fleet', { token: cluster.tokens[user]! }));
        assert.equal(res.status, 200);
        const body = (await res.json()) as FleetIndex;
        assert.equal(body.hub, undefined, `${user}: ${JSON.stringify(body.hub)}`);
        assert.deepEqual(hubPageState(body, false), {
          shown: 'no',
          reason: 'The home cluster serves no ManagedClusters: it is not an Open Cluster Management hub.',
        });
      }
      const configured = fleetMembers();
      const person = fleetPerson(consoleRequest('/', { token: cluster.tokens.alice! }), configured);
      const later = await withHubMembers(configured, person, Date.now() + 30_000);
      assert.deepEqual(later.hub, { hub: false });
    });
  });
