import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { catalogFromTexts, describeProblems } from './catalog';

function bundle(pkg: string, name: string, version: string | null, extraProps = '') {
  const pkgProp =
    version === null ? '' : `\n  - type: olm.package\n    value: {packageName: ${pkg}, version: '${version}'}`;
  return `schema: olm.bundle\npackage: ${pkg}\nname: ${name}\nproperties:${pkgProp || ' []'}${extraProps}`;
}

const healthy = [
  'schema: olm.package\nname: good\ndefaultChannel: stable',
  'schema: olm.channel\npackage: good\nname: stable\nentries:\n  - name: good.v1\n  - name: good.v2\n    replaces: good.v1',
  bundle('good', 'good.v1', '1.0.0'),
  bundle('good', 'good.v2', '2.0.0'),
].join('\n---\n');

function problemsOf(text: string, pkg: string): string[] {
  const cat = catalogFromTexts({ 'good/catalog.yaml': healthy, [`${pkg}/catalog.yaml`]: text });
  assert.ok(cat.packages.has('good'), 'a broken package never hides a healthy one');
  assert.ok(!cat.packages.has(pkg), 'a broken package is set aside');
  return (cat.problems.get(pkg) ?? []).map((p) => p.message);
}

describe('validatePackage (opm validate rules, every problem collected)', () => {
  test('the healthy package has none', () => {
    const cat = catalogFromTexts({ 'good/catalog.yaml': healthy });
    assert.equal(cat.problems.size, 0);
    assert.deepEqual([...cat.packages.keys()], ['good']);
  });

  test('several problems in one package are all reported', () => {
    const msgs = problemsOf(
      [
        'schema: olm.package\nname: bad\ndefaultChannel: beta',
        'schema: olm.channel\npackage: bad\nname: stable\nentries:\n  - name: bad.v1\n  - name: bad.v2\n  - name: bad.v3\n    skips: [""]\n    skipRange: ">=1.0 <2.0.0"',
        bundle('bad', 'bad.v1', '1.0.0'),
        bundle('bad', 'bad.v2', 'v2'),
        bundle('bad', 'bad.orphan', '1.0.0'),
      ].join('\n---\n'),
      'bad',
    );
    assert.ok(msgs.includes('default channel "beta" not found in channels list'), msgs.join('\n'));
    assert.ok(msgs.includes('channel entry "bad.v3" refers to a bundle that is not in the package'));
    assert.ok(msgs.includes('entry "bad.v3": skips must not contain empty names'));
    assert.ok(msgs.some((m) => m.startsWith('entry "bad.v3": invalid skipRange:')));
    assert.ok(msgs.includes('multiple channel heads found in graph: bad.v1, bad.v2, bad.v3'));
    assert.ok(msgs.includes('bundle "bad.orphan" is not in any channel'));
    assert.ok(msgs.some((m) => m.startsWith('invalid version "v2"')));
    assert.ok(msgs.includes('bundles "bad.v1" and "bad.orphan" have the same version 1.0.0'));
  });

  test('bundle olm.package property: exactly one, naming the package', () => {
    const msgs = problemsOf(
      [
        'schema: olm.package\nname: p\ndefaultChannel: c',
        'schema: olm.channel\npackage: p\nname: c\nentries:\n  - name: p.v2\n    replaces: p.v1\n  - name: p.v1',
        bundle('p', 'p.v1', null),
        bundle('p', 'p.v2', '2.0.0').replace('packageName: p,', 'packageName: other,'),
      ].join('\n---\n'),
      'p',
    );
    assert.ok(msgs.includes('bundle must have exactly 1 "olm.package" property, found 0'), msgs.join('\n'));
    assert.ok(msgs.includes('"olm.package" property names package "other", but the bundle belongs to "p"'));
  });

  test('package name must be a DNS-1123 label; default channel must be set', () => {
    const msgs = problemsOf('schema: olm.package\nname: Bad_Name', 'Bad_Name');
    assert.ok(msgs.includes('package name "Bad_Name" is not a valid DNS-1123 label'));
    assert.ok(msgs.includes('default channel must be set'));
    assert.ok(msgs.includes('package must contain at least one channel'));
  });

  test('cycles and stranded bundles, in opm words', () => {
    const cyc = problemsOf(
      [
        'schema: olm.package\nname: cyc\ndefaultChannel: c',
        'schema: olm.channel\npackage: cyc\nname: c\nentries:\n  - {name: cyc.v3, replaces: cyc.v2}\n  - {name: cyc.v2, replaces: cyc.v1}\n  - {name: cyc.v1, replaces: cyc.v2}',
        bundle('cyc', 'cyc.v1', '1.0.0'),
        bundle('cyc', 'cyc.v2', '2.0.0'),
        bundle('cyc', 'cyc.v3', '3.0.0'),
      ].join('\n---\n'),
      'cyc',
    );
    assert.ok(
      cyc.some((m) => m.startsWith('detected cycle in replaces chain of upgrade graph')),
      cyc.join('\n'),
    );
  });

  test('problems name the file and blob they come from', () => {
    const cat = catalogFromTexts({
      'x/catalog.yaml':
        'schema: olm.package\nname: x\ndefaultChannel: nope\n---\nschema: olm.channel\npackage: x\nname: c\nentries:\n  - name: x.v1\n---\n' +
        bundle('x', 'x.v1', '1.0.0'),
    });
    assert.deepEqual(describeProblems(cat), [
      'package "x" (x/catalog.yaml, blob 1): default channel "nope" not found in channels list',
    ]);
  });

  test('a file that does not parse is reported and the other files still load', () => {
    const cat = catalogFromTexts({ 'good/catalog.yaml': healthy, 'bad/catalog.yaml': 'schema: [' });
    assert.ok(cat.packages.has('good'));
    assert.match(cat.fileProblems[0]?.message ?? '', /cannot parse bad\/catalog\.yaml/);
  });
});
