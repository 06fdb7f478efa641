// Which navigation item is current: its own page is `page`, a page within it (details, an
// install's progress, an InstallPlan) is `true`, and a page of another item is neither.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { currentState, NAV_ITEMS, navItemsFor } from './nav-items';

const item = (label: string) => NAV_ITEMS.find((i) => i.label === label)!;

describe('currentState', () => {
  test("an item's own page is the current page", () => {
    assert.equal(currentState(item('OperatorHub'), '/operatorhub'), 'page');
    assert.equal(currentState(item('Installed Operators'), '/operators'), 'page');
  });

  test('a page within an item makes the item current, but not as the page itself', () => {
    assert.equal(currentState(item('OperatorHub'), '/operatorhub/olm/olm-console-demo/pgpilot'), 'true');
    assert.equal(currentState(item('OperatorHub'), '/installs/team1/pgpilot'), 'true');
    assert.equal(currentState(item('Installed Operators'), '/installplans/team1/install-abc'), 'true');
  });

  test('a page that only starts with the same letters is not within it', () => {
    assert.equal(currentState(item('Installed Operators'), '/operatorhub'), undefined);
    assert.equal(currentState(item('Cluster settings'), '/settingsx'), undefined);
  });

  test("only the cluster-wide pages wait for the cluster's answer", () => {
    const asked = NAV_ITEMS.filter((i) => i.clusterPage).map((i) => i.href);
    assert.deepEqual(asked, ['/catalogsources', '/clustercatalogs', '/cluster-upgrade', '/settings']);
  });
});

describe('the fleet pages in the navigation', () => {
  const fleetPages = ['/fleet/clusters', '/fleet/operators', '/fleet/approvals', '/fleet/rollouts'];
  test('listed only when the console serves more than one cluster', () => {
    assert.deepEqual(
      navItemsFor(1).filter((i) => fleetPages.includes(i.href)),
      [],
    );
    assert.deepEqual(
      navItemsFor(3)
        .filter((i) => fleetPages.includes(i.href))
        .map((i) => i.label),
      ['Clusters', 'Fleet operators', 'Fleet approvals', 'Rollouts'],
    );
  });
  test('each is current on its own page only', () => {
    assert.equal(currentState(item('Fleet operators'), '/fleet/operators'), 'page');
    assert.equal(currentState(item('Installed Operators'), '/fleet/operators'), undefined);
    assert.equal(currentState(item('Clusters'), '/fleet/operators'), undefined);
  });
});
