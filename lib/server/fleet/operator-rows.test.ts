// Operators across clusters as rows: one per package, each install under the cluster that
// reported it, drift measured from the version most installs run.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PerCluster } from '../../api/fleet';
import { commonVersion, fleetOperatorRows, type ClusterInstall, type ClusterInstalls } from './operator-rows';

const install = (pkg: string, version: string | undefined, olm: 'v0' | 'v1' = 'v0'): ClusterInstall => ({
  package: pkg,
  olm,
  name: pkg,
  namespace: 'operators',
  ...(version ? { version } : {}),
  health: { severity: 'ok', label: 'Succeeded' },
});
const answered = (name: string, installs: ClusterInstall[]): PerCluster<ClusterInstalls> => ({
  name,
  home: false,
  server: `https://${name}`,
  ok: true,
  value: { installs, notes: [] },
});
const silent = (name: string): PerCluster<ClusterInstalls> => ({
  name,
  home: false,
  server: `https://${name}`,
  ok: false,
  error: { code: 503, reason: 'ServiceUnavailable', message: 'down' },
});

describe('the most common version', () => {
  test('the version most installs run', () => assert.equal(commonVersion(['1.0.0', '1.1.0', '1.0.0']), '1.0.0'));
  test('a tie goes to the highest, compared as numbers', () =>
    assert.equal(commonVersion(['1.9.0', '1.10.0']), '1.10.0'));
  test('none without versions', () => assert.equal(commonVersion([]), undefined));
});

describe('rows across clusters', () => {
  test('each install stays under its own cluster; drift from the common version', () => {
    const rows = fleetOperatorRows([
      answered('east', [install('certwarden', '1.0.0'), install('pgpilot', '1.4.0')]),
      answered('west', [install('certwarden', '1.0.0')]),
      answered('staging', [install('certwarden', '1.1.0'), install('pgpilot', '1.3.0', 'v1')]),
    ]);
    assert.deepEqual(
      rows.map((r) => [
        r.package,
        r.commonVersion,
        Object.entries(r.installs).map(([c, list]) => [c, list.map((i) => `${i.olm} ${i.version} ${i.drift}`)]),
      ]),
      [
        [
          'certwarden',
          '1.0.0',
          [
            ['east', ['v0 1.0.0 false']],
            ['west', ['v0 1.0.0 false']],
            ['staging', ['v0 1.1.0 true']],
          ],
        ],
        [
          'pgpilot',
          '1.4.0',
          [
            ['east', ['v0 1.4.0 false']],
            ['staging', ['v1 1.3.0 true']],
          ],
        ],
      ],
    );
  });

  test('a cluster that did not answer adds nothing, and an install without a version never drifts', () => {
    const rows = fleetOperatorRows([
      silent('east'),
      answered('west', [install('certwarden', '1.0.0'), install('certwarden', undefined)]),
    ]);
    assert.deepEqual(Object.keys(rows[0]!.installs), ['west']);
    assert.deepEqual(
      rows[0]!.installs.west!.map((i) => i.drift),
      [false, false],
    );
  });
});
