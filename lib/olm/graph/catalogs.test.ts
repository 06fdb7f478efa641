// Graphs and update paths on the real catalogs in ../shared/catalogs. Expected values were read
// by hand from the channel files named beside each test.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadCatalog } from '../fbc/load-catalog';
import { needsSharedCatalogs, sharedCatalogs, whenSharedCatalogs } from '../../testing/shared-catalogs';
import { packageChannelGraph, packageGraphs } from './from-model';
import { nextUpdateAcrossChannels, updatePath } from './update-path';

const catalogs = sharedCatalogs;
const gk = whenSharedCatalogs(() =>
  loadCatalog(join(catalogs, 'gatekeeper-operator-product-v4.20')).packages.get('gatekeeper-operator-product')!,
);
const certified = whenSharedCatalogs(() => loadCatalog(join(catalogs, 'certified-operators-v4.18')));

describe('gatekeeper (gatekeeper-operator-product/channels/channel-stable.yaml)', needsSharedCatalogs, () => {
  const stable = packageChannelGraph(gk, 'stable')!;

  test('the head of stable is v3.21.0, and of 3.15 is v3.15.4', () => {
    assert.equal(stable.head, 'gatekeeper-operator-product.v3.21.0');
    assert.equal(packageChannelGraph(gk, '3.15')?.head, 'gatekeeper-operator-product.v3.15.4');
  });

  test('the tail replaces a bundle the catalog does not have', () => {
    assert.deepEqual(stable.missing, ['gatekeeper-operator-product.v3.14.1-0.1727189868.p']);
  });

  test('v3.15.1-0.1727189912.p skips three earlier 3.15.1 builds: they are never targets', () => {
    for (const n of [
      'gatekeeper-operator-product.v3.15.1',
      'gatekeeper-operator-product.v3.15.1-0.1725401534.p',
      'gatekeeper-operator-product.v3.15.1-0.1726639477.p',
    ]) {
      const node = stable.nodes.find((x) => x.name === n)!;
      assert.deepEqual(node.skippedBy, ['gatekeeper-operator-product.v3.15.1-0.1727189912.p']);
      assert.equal(node.order, undefined);
    }
  });

  test('the head skipRange <3.21.0 takes 3.17.0 to 3.21.0 in one step', () => {
    const p = updatePath(stable, { name: 'gatekeeper-operator-product.v3.17.0', version: '3.17.0' });
    assert.deepEqual(
      p.steps.map((s) => s.to),
      ['gatekeeper-operator-product.v3.21.0'],
    );
    assert.ok(p.steps[0]?.via.includes('skipRange'));
    assert.equal(p.reachesHead, true);
  });

  test('an installed 3.14.1, older than the whole channel, also goes to the head in one step', () => {
    const p = updatePath(stable, {
      name: 'gatekeeper-operator-product.v3.14.1-0.1727189868.p',
      version: '3.14.1+0.1727189868.p',
    });
    assert.deepEqual(
      p.steps.map((s) => s.to),
      ['gatekeeper-operator-product.v3.21.0'],
    );
  });

  test('with spec.channel empty the default channel (stable) answers first', () => {
    const n = nextUpdateAcrossChannels(packageGraphs(gk), gk.defaultChannel, {
      name: 'gatekeeper-operator-product.v3.15.2',
      version: '3.15.2',
    });
    assert.ok(n.kind === 'update');
    assert.equal(n.step.channel, 'stable');
    assert.equal(n.step.to, 'gatekeeper-operator-product.v3.21.0');
  });
});

describe('pg4k-pgd stable (certified-operators-v4.18/pg4k-pgd/catalog.yaml)', needsSharedCatalogs, () => {
  const stable = packageChannelGraph(certified.packages.get('pg4k-pgd')!, 'stable')!;

  test('v1.2.1 is the head; v1.2.0 skips every 1.1.x and 1.0.1', () => {
    assert.equal(stable.head, 'pg4k-pgd.v1.2.1');
    assert.deepEqual(stable.order, ['pg4k-pgd.v1.2.1', 'pg4k-pgd.v1.2.0']);
  });

  test('v1.1.0 updates through skips to v1.2.0, then by replaces to v1.2.1', () => {
    const p = updatePath(stable, { name: 'pg4k-pgd.v1.1.0', version: '1.1.0' });
    assert.deepEqual(
      p.steps.map((s) => [s.to, s.via]),
      [
        ['pg4k-pgd.v1.2.0', ['skips']],
        ['pg4k-pgd.v1.2.1', ['replaces']],
      ],
    );
  });
});

describe('every channel of the large catalog', needsSharedCatalogs, () => {
  test('has one head, an order, and a path from every entry that ends on the head', () => {
    let channels = 0;
    for (const pkg of certified.packages.values()) {
      for (const g of packageGraphs(pkg)) {
        channels++;
        assert.ok(g.head, `${pkg.name}/${g.channelName} has a head`);
        assert.equal(g.orderError, undefined);
        for (const name of g.order) {
          const node = g.nodes.find((n) => n.name === name)!;
          const p = updatePath(g, { name, version: node.version });
          assert.ok(p.reachesHead, `${pkg.name}/${g.channelName}: ${name} reaches the head`);
        }
      }
    }
    assert.equal(channels, 213);
  });
});
