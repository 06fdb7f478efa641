// An OLM v1 rollout on a real Open Cluster Management v1.0.0 fleet (`npm run cluster -- --fleet 2`
// with OLM v1 beside v0: the hub, also local-cluster, and cluster2 labelled canary=true, each
// serving the shared gatekeeper catalog as a ClusterCatalog whose bundles are images in the
// hub's registry). The preview computes the installer ServiceAccount's rights from the bundle the
// hub's ClusterCatalog resolves (pulled from its image, as the install wizard does); written, each
// cluster's operator-controller installs it with those rights alone, canary first, and each
// cluster's installed bundle version comes back in status feedback. Skipped when the programs or
// the shared catalogs are missing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '../../k8s/client';
import type { RolloutChoices } from '../../olm/rollout/choices';
import {
  GATEKEEPER as PKG,
  kubectl,
  realFleetMissing,
  startGatekeeperFleet,
  type OcmFleet,
} from '../testing/ocm-fleet';
import { previewRollout } from './preview';
import { readRollout } from './read';
import { writeRollout } from './write';

const skip = realFleetMissing();

const choices: RolloutChoices = {
  name: 'gatekeeper-v1',
  hubNamespace: 'rollouts',
  olm: 'v1',
  package: PKG,
  channel: '3.18',
  version: '3.18.1',
  installNamespace: 'gatekeeper-v1',
  catalog: { name: 'gatekeeper-operator-product-v4-20' },
  placement: { clusterSets: ['default'] },
  canary: { canary: 'true' },
  waveSize: 1,
};

if (skip) test('an OLM v1 rollout across a real OCM fleet', (t) => t.skip(skip));
else
  describe('an OLM v1 rollout across a real OCM fleet', () => {
    let fleet: OcmFleet;
    let hub: KubeClient;
    before(async () => {
      fleet = await startGatekeeperFleet({ olmV1: true });
      ({ hub } = fleet);
      const { real } = fleet;
      const hubDir = join(real.dir, 'local-cluster');
      // The hub's catalogd address (its kubeconfig's extension) and image registry, trusted as the
      // console's operator would configure them for bundle images (docs/olm-v1/install.md).
      const catalogd = /^\s*url: (https:\/\/\S+)$/m.exec(readFileSync(real.hubKubeconfig, 'utf8'))![1]!;
      const registry = /^\[local-cluster\] catalog image (127\.0\.0\.1:\d+)\//m.exec(real.output())![1]!;
      Object.assign(process.env, {
        OLM_CONSOLE_CATALOGD_URL: catalogd,
        OLM_CONSOLE_PULL_BUNDLE_IMAGES: 'true',
        OLM_CONSOLE_REGISTRY_CA_FILE: join(hubDir, 'ca.crt'),
        OLM_CONSOLE_PRIVATE_REGISTRIES: registry,
      });
    });
    after(async () => {
      await fleet?.stop();
    });

    test("the preview carries the installer's rights for the bundle the hub's catalog resolves", async () => {
      const p = await previewRollout(hub, choices);
      assert.deepEqual(p.blockers, []);
      const set = p.objects.find((o) => o.kind === 'ManifestWorkReplicaSet')!.object as {
        spec: { manifestWorkTemplate: { workload: { manifests: { kind: string; metadata: { name: string } }[] } } };
      };
      const kinds = set.spec.manifestWorkTemplate.workload.manifests.map((m) => `${m.kind} ${m.metadata.name}`);
      assert.deepEqual(kinds[0], 'Namespace gatekeeper-v1');
      assert.deepEqual(kinds[1], `ServiceAccount ${PKG}-installer`);
      assert.ok(kinds.includes(`ClusterRole ${PKG}-installer`), kinds.join(', '));
      assert.equal(kinds.at(-1), `ClusterExtension ${PKG}`);
    });

    test('written, each cluster installs it through its own OLM v1 and reports the bundle version', async () => {
      await writeRollout(hub, choices);
      const deadline = Date.now() + 300_000;
      let view;
      for (;;) {
        view = (await readRollout(hub, 'rollouts', 'gatekeeper-v1')).view;
        const rows = view.waves.flatMap((w) => w.clusters);
        if (rows.length === 2 && rows.every((c) => c.state === 'healthy')) break;
        if (Date.now() > deadline) assert.fail(`not both healthy: ${JSON.stringify(view.waves)}`);
        await new Promise((r) => setTimeout(r, 1000));
      }
      assert.deepEqual(
        view.waves.map((w) => [
          w.name,
          w.clusters.map((c) => [c.cluster, c.feedback.bundleVersion, c.feedback.installed]),
        ]),
        [
          ['canary', [['cluster2', '3.18.1', 'True']]],
          ['', [['local-cluster', '3.18.1', 'True']]],
        ],
      );
      for (const cluster of ['cluster2', 'local-cluster']) {
        const r = kubectl(fleet.real.managed.get(cluster)!, [
          'get',
          'clusterextension',
          PKG,
          '-o',
          'jsonpath={.status.install.bundle.name}',
        ]);
        assert.equal(r.stdout, `${PKG}.v3.18.1`, `${cluster}: ${r.stderr}`);
      }
    });
  });
