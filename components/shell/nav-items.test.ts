// Which navigation item is current: its own page is `page`, a page within it (details, an
// install's progress, an InstallPlan) is `true`, and a page of another item is neither.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { currentState, hubPageState, NAV_ITEMS, navItemsFor } from './nav-items';

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
  const fleetPages = ['/fleet/clusters', '/fleet/operators', '/fleet/approvals'];
  test('listed only when the console serves more than one cluster', () => {
    assert.deepEqual(
      navItemsFor(1).filter((i) => fleetPages.includes(i.href)),
      [],
    );
    assert.deepEqual(
      navItemsFor(3)
        .filter((i) => fleetPages.includes(i.href))
        .map((i) => i.label),
      ['Clusters', 'Fleet operators', 'Fleet approvals'],
    );
  });
  test("Rollouts is an item with one cluster or many: whether it shows is the hub's answer", () => {
    for (const n of [1, 3]) assert.ok(navItemsFor(n).some((i) => i.label === 'Rollouts' && i.hub));
  });
  test('each is current on its own page only', () => {
    assert.equal(currentState(item('Fleet operators'), '/fleet/operators'), 'page');
    assert.equal(currentState(item('Installed Operators'), '/fleet/operators'), undefined);
    assert.equal(currentState(item('Clusters'), '/fleet/operators'), undefined);
  });
});

describe('the hub pages in the navigation', () => {
  test('shown where the home cluster is a hub whose ManagedClusters the person may list', () => {
    assert.deepEqual(hubPageState({ hub: { hub: true } }, false), { shown: 'yes' });
  });
  test('hidden, with the reason, where the home cluster is no hub', () => {
    const s = hubPageState({}, false);
    assert.equal(s.shown, 'no');
    assert.match('reason' in s ? s.reason : '', /not an Open Cluster Management hub/);
  });
  test("hidden, with the hub's note, where the person may not list its ManagedClusters", () => {
    const note = 'the home cluster is an Open Cluster Management hub, but you may not list its ManagedClusters';
    assert.deepEqual(hubPageState({ hub: { hub: true, note } }, false), { shown: 'no', reason: `${note}.` });
  });
  test('kept in place unseen until the index answers, and shown when it cannot', () => {
    assert.deepEqual(hubPageState(undefined, false), { shown: 'pending' });
    assert.deepEqual(hubPageState(undefined, true), { shown: 'yes' });
  });
});
