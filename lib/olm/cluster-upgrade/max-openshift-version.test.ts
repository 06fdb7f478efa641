// olm.maxOpenShiftVersion as OLM v0.38.0's helpers.go judges it (its helpers_test.go cases:
// none, a valid major.minor, a patch version refused, more than one property refused, an empty
// value refused), and the comparison against the next minor.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blocksTarget, judgeValue, maxOpenShiftVersionOf, nextMinor, parseMinor } from './max-openshift-version';

const props = (...values: unknown[]) => ({
  'operatorframework.io/properties': JSON.stringify({
    properties: [
      { type: 'olm.package', value: { packageName: 'p', version: '1.0.0' } },
      ...values.map((value) => ({ type: 'olm.maxOpenShiftVersion', value })),
    ],
  }),
});

test('read from the projected properties annotation', () => {
  assert.deepEqual(maxOpenShiftVersionOf(undefined), { kind: 'none' });
  assert.deepEqual(maxOpenShiftVersionOf(props()), { kind: 'none' });
  assert.deepEqual(maxOpenShiftVersionOf(props('4.18')), { kind: 'max', max: { major: 4, minor: 18 }, text: '4.18' });
  assert.deepEqual(
    maxOpenShiftVersionOf(props(4.17)),
    { kind: 'max', max: { major: 4, minor: 17 }, text: '4.17' },
    'an unquoted YAML number, as some catalogs write it',
  );
  assert.deepEqual(
    maxOpenShiftVersionOf(props('"4.16"')),
    { kind: 'max', max: { major: 4, minor: 16 }, text: '4.16' },
    'extra quoting',
  );
});

test('what OLM refuses, each a blocker by itself', () => {
  assert.deepEqual(maxOpenShiftVersionOf(props('4.18', '4.19')), {
    kind: 'invalid',
    error: 'defining more than one "olm.maxOpenShiftVersion" property is not allowed',
  });
  assert.deepEqual(judgeValue(''), { kind: 'invalid', error: 'value cannot be "" (an empty string)' });
  assert.deepEqual(judgeValue('4.18.1'), {
    kind: 'invalid',
    error: 'property olm.maxOpenShiftVersion must specify only <major>.<minor> version, got invalid value 4.18.1',
  });
  assert.equal(judgeValue('four').kind, 'invalid');
});

test('a max below the target blocks; equal or above does not', () => {
  const target = nextMinor(parseMinor('4.18.7')!);
  assert.deepEqual(target, { major: 4, minor: 19 });
  assert.equal(blocksTarget({ major: 4, minor: 18 }, target), true);
  assert.equal(blocksTarget({ major: 4, minor: 19 }, target), false);
  assert.equal(blocksTarget({ major: 5, minor: 0 }, target), false);
  assert.equal(blocksTarget({ major: 3, minor: 99 }, target), true);
});
