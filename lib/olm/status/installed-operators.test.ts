import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterServiceVersion } from '../resources/cluster-service-version';
import type { Subscription } from '../resources/subscription';
import { installedOperators } from './installed-operators';

const csv = (
  ns: string,
  name: string,
  over: { replaces?: string; targets?: string; phase?: string; copiedFrom?: string } = {},
): ClusterServiceVersion => ({
  metadata: {
    name,
    namespace: ns,
    annotations: {
      ...(over.targets !== undefined ? { 'olm.targetNamespaces': over.targets } : {}),
      ...(over.copiedFrom ? { 'olm.operatorNamespace': over.copiedFrom } : {}),
    },
    labels: over.copiedFrom ? { 'olm.copiedFrom': over.copiedFrom } : {},
  },
  spec: {
    displayName: name.split('.')[0]!,
    version: name.split('.v')[1],
    install: { strategy: 'deployment' },
    ...(over.replaces ? { replaces: over.replaces } : {}),
  },
  status: { phase: over.phase ?? 'Succeeded', reason: over.copiedFrom ? 'Copied' : 'InstallSucceeded' },
});
const sub = (ns: string, pkg: string, installed?: string, current?: string): Subscription => ({
  metadata: { name: pkg, namespace: ns },
  spec: { name: pkg, source: 'c', sourceNamespace: 'olm', channel: 'stable' },
  status: { installedCSV: installed, currentCSV: current ?? installed, state: installed ? 'AtLatestKnown' : '' },
});

test('during an upgrade the new CSV is the row, the replaced one is not', () => {
  const rows = installedOperators({
    csvs: [
      csv('a', 'op.v1', { phase: 'Replacing', targets: 'a' }),
      csv('a', 'op.v2', { replaces: 'op.v1', phase: 'Installing', targets: 'a' }),
    ],
    subscriptions: [sub('a', 'op', 'op.v1', 'op.v2')],
    installPlans: [],
    copiesDisabled: false,
  });
  assert.deepEqual(
    rows.map((r) => [r.csvName, r.subscription?.name]),
    [['op.v2', 'op']],
  );
});

test('copies are counted from the targets; all namespaces from the namespace count; zero when disabled', () => {
  const input = { subscriptions: [], installPlans: [], namespaceCount: 2001, copiesDisabled: false };
  const [multi] = installedOperators({ ...input, csvs: [csv('a', 'm.v1', { targets: 'a,b,c' })] });
  assert.equal(multi!.copies.count, 2);
  const [all] = installedOperators({ ...input, csvs: [csv('ops', 'g.v1', { targets: '' })] });
  assert.equal(all!.managedNamespaces, 'all');
  assert.equal(all!.copies.count, 2000);
  const [off] = installedOperators({ ...input, copiesDisabled: true, csvs: [csv('ops', 'g.v1', { targets: '' })] });
  assert.deepEqual(off!.copies, { count: 0, disabled: true });
});

test('a copy is a row of its own only in a namespace view, never with a subscription', () => {
  const rows = installedOperators({
    csvs: [csv('team1', 'g.v1', { copiedFrom: 'ops' })],
    subscriptions: [sub('team1', 'g', 'g.v1')],
    installPlans: [],
    copiesDisabled: false,
  });
  const copy = rows.find((r) => r.csvName === 'g.v1')!;
  assert.equal(copy.copiedFrom, 'ops');
  assert.equal(copy.subscription, undefined);
});

test('a Subscription with nothing installed yet is an installing row', () => {
  const [row] = installedOperators({
    csvs: [],
    subscriptions: [sub('x', 'new')],
    installPlans: [],
    copiesDisabled: false,
  });
  assert.equal(row!.status.label, 'Installing');
  assert.equal(row!.key, 'x/new');
});

test('a row carries what its Subscription says is deprecated; a copy, which has no Subscription, does not', () => {
  const deprecated: Subscription = {
    ...sub('a', 'op', 'op.v1'),
    status: {
      ...sub('a', 'op', 'op.v1').status!,
      conditions: [
        { type: 'ChannelDeprecated', status: 'True', message: 'olm.channel/stable: use fast' },
        { type: 'Deprecated', status: 'True', message: 'olm.channel/stable: use fast' },
      ],
    },
  };
  const rows = installedOperators({
    csvs: [
      csv('a', 'op.v1', { targets: 'a,b' }),
      csv('b', 'op.v1', { copiedFrom: 'a' }),
      csv('c', 'other.v1', { targets: 'c' }),
    ],
    subscriptions: [deprecated, sub('c', 'other', 'other.v1')],
    installPlans: [],
    copiesDisabled: false,
  });
  const row = (ns: string) => rows.find((r) => r.namespace === ns)!;
  assert.deepEqual(row('a').deprecation?.notes, [{ scope: 'channel', name: 'stable', message: 'use fast' }]);
  assert.equal(row('b').deprecation, undefined);
  assert.equal(row('c').deprecation, undefined);
  const [installing] = installedOperators({
    csvs: [],
    subscriptions: [{ ...deprecated, status: { ...deprecated.status!, installedCSV: undefined } }],
    installPlans: [],
    copiesDisabled: false,
  });
  assert.equal(installing!.deprecation?.text, 'Channel stable is deprecated: use fast.');
});
