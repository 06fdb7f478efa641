import assert from 'node:assert/strict';
import { test } from 'node:test';
import { trailFor } from './trail';

test('an address under a section: that section, linked, then the name the address ends in', () => {
  assert.deepEqual(trailFor('/operators/pgm/nope.v1'), {
    section: { href: '/operators', label: 'Installed Operators' },
    here: 'nope.v1',
  });
  // An InstallPlan belongs to Installed Operators, as the navigation marks it.
  assert.deepEqual(trailFor('/installplans/pgm/install-abc').section, {
    href: '/operators',
    label: 'Installed Operators',
  });
  assert.deepEqual(trailFor('/operatorhub'), { section: { href: '/operatorhub', label: 'OperatorHub' } });
});

test('an address under no section, or badly escaped, still gives a trail', () => {
  assert.deepEqual(trailFor('/no/such%20page'), { here: 'such page' });
  assert.deepEqual(trailFor('/x/%zz'), { here: '%zz' });
  assert.deepEqual(trailFor('/'), {});
});
