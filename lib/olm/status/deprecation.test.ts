import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Subscription } from '../resources/subscription';
import { subscriptionDeprecation } from './deprecation';

const sub = (conditions: { type: string; status: string; message?: string }[]): Pick<Subscription, 'status'> => ({
  status: { lastUpdated: '2026-01-01T00:00:00Z', conditions } as Subscription['status'],
});

test('package, channel and bundle deprecations as OLM words them, each message without its prefix', () => {
  const d = subscriptionDeprecation(
    sub([
      { type: 'CatalogSourcesUnhealthy', status: 'False' },
      {
        type: 'BundleDeprecated',
        status: 'True',
        message: 'olm.bundle/flagpole.v1.0.0: Flagpole 1.0.0 leaks flag evaluations; use 1.0.1.',
      },
      { type: 'PackageDeprecated', status: 'True', message: 'olm.package/flagpole: no longer maintained' },
      { type: 'ChannelDeprecated', status: 'True', message: 'olm.channel/legacy: switch to stable' },
      {
        type: 'Deprecated',
        status: 'True',
        message:
          'olm.package/flagpole: no longer maintained; olm.channel/legacy: switch to stable; olm.bundle/flagpole.v1.0.0: …',
      },
    ]),
  )!;
  assert.deepEqual(d.notes, [
    { scope: 'package', name: 'flagpole', message: 'no longer maintained' },
    { scope: 'channel', name: 'legacy', message: 'switch to stable' },
    { scope: 'bundle', name: 'flagpole.v1.0.0', message: 'Flagpole 1.0.0 leaks flag evaluations; use 1.0.1.' },
  ]);
  assert.equal(
    d.text,
    'Package flagpole is deprecated: no longer maintained. Channel legacy is deprecated: switch to stable. Bundle flagpole.v1.0.0 is deprecated: Flagpole 1.0.0 leaks flag evaluations; use 1.0.1.',
  );
});

test('nothing deprecated, or conditions no longer True: no badge', () => {
  assert.equal(subscriptionDeprecation(sub([])), undefined);
  assert.equal(subscriptionDeprecation({}), undefined);
  assert.equal(
    subscriptionDeprecation(
      sub([
        { type: 'ChannelDeprecated', status: 'False', message: 'olm.channel/legacy: old' },
        { type: 'Deprecated', status: 'Unknown' },
      ]),
    ),
    undefined,
  );
});

test("a message without OLM's prefix is kept whole; only the roll-up is read when it is alone", () => {
  assert.deepEqual(
    subscriptionDeprecation(sub([{ type: 'ChannelDeprecated', status: 'True', message: 'use stable' }]))!.notes,
    [{ scope: 'channel', message: 'use stable' }],
  );
  const d = subscriptionDeprecation(sub([{ type: 'Deprecated', status: 'True', message: 'olm.package/x: gone' }]))!;
  assert.deepEqual(d.notes, [{ message: 'olm.package/x: gone' }]);
  assert.equal(d.text, 'Deprecated: olm.package/x: gone.');
});
