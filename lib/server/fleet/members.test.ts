// The clusters the console serves from a deployed console's clusters file: names, addresses and
// CAs only, each refusal naming the file, the field and what it must be.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { readClustersFile, resolveFleet } from './members';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
/** The PEM as a YAML block scalar's lines at the given indent. */
const pemBlock = (indent: string) => PEM.trim().split('\n').join(`\n${indent}`);
const refusal = (text: string): string => {
  try {
    readClustersFile('/etc/olm-console/clusters.yaml', text);
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
};

describe('the clusters file', () => {
  test('names, https servers and PEM CAs', () => {
    const f = readClustersFile(
      'clusters.yaml',
      [
        'home: hub',
        'clusters:',
        '- name: prod-west',
        '  server: https://api.west:6443',
        '  certificateAuthority: |',
        `    ${pemBlock('    ')}`,
        '- name: lab',
        '  server: https://api.lab:6443',
        '',
      ].join('\n'),
    );
    assert.equal(f.home, 'hub');
    assert.deepEqual(
      f.clusters.map((c) => [c.name, c.server, !!c.certificateAuthority]),
      [
        ['prod-west', 'https://api.west:6443', true],
        ['lab', 'https://api.lab:6443', false],
      ],
    );
  });
  test('a token in the file is refused: it names clusters only', () =>
    assert.match(
      refusal('clusters:\n- name: a\n  server: https://a\n  token: abc\n'),
      /^the clusters file \/etc\/olm-console\/clusters\.yaml: clusters\.0: .*token.*no tokens, users or other/,
    ));
  test('a server over plain http is refused', () =>
    assert.match(refusal('clusters:\n- name: a\n  server: http://a:6443\n'), /clusters\.0\.server: must be https/));
  test('a CA that is not PEM is refused', () =>
    assert.match(
      refusal('clusters:\n- name: a\n  server: https://a\n  certificateAuthority: hello\n'),
      /certificateAuthority: must be a PEM certificate/,
    ));
  test("a name used twice, or the home cluster's name, is refused", () => {
    assert.match(
      refusal('clusters:\n- {name: a, server: "https://a"}\n- {name: a, server: "https://b"}\n'),
      /cluster a is named twice/,
    );
    assert.match(refusal('clusters:\n- {name: home, server: "https://a"}\n'), /cluster home is named twice/);
  });
  test('a bad name says what a name may be', () =>
    assert.match(refusal('clusters:\n- {name: "a b", server: "https://a"}\n'), /clusters\.0\.name: must be letters/));
  test('not YAML', () => assert.match(refusal('clusters: [\n'), /is not YAML or JSON/));
});

describe('a deployed console with a clusters file', () => {
  test("the home cluster under the file's name, then each listed cluster, reached with the person's token", () => {
    const dir = mkdtempSync(join(tmpdir(), 'fleet-members-'));
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: c, cluster: {server: "https://home:6443"}}]',
        'users: [{name: u, user: {token: t}}]',
        'contexts: [{name: ctx, context: {cluster: c, user: u}}]',
        'current-context: ctx',
        '',
      ].join('\n'),
    );
    const file = join(dir, 'clusters.yaml');
    const clusters = ['home: hub', 'clusters:', '- name: west', '  server: https://west:6443'];
    writeFileSync(file, [...clusters, '  certificateAuthority: |', `    ${pemBlock('    ')}`, ''].join('\n'));
    const members = resolveFleet({
      OLM_CONSOLE_KUBECONFIG: kubeconfig,
      OLM_CONSOLE_AUTH: 'token',
      OLM_CONSOLE_CLUSTERS_FILE: file,
    });
    assert.deepEqual(
      members.map((m) => [m.name, m.home, m.access.mode, m.access.server, !!m.access.shared]),
      [
        ['hub', true, 'token', 'https://home:6443', false],
        ['west', false, 'token', 'https://west:6443', false],
      ],
    );
    assert.equal(Buffer.from(members[1]!.access.cluster.caData!, 'base64').toString(), PEM);
  });
});
