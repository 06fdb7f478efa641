// Where the console reads ClusterCatalog content: only `<catalogd's address>/catalogs/<name>`, with
// catalogd's address from OLM_CONSOLE_CATALOGD_URL (default: the release's Service) and from the
// kubeconfig's cluster, which the sandbox and `npm run cluster` write; never what a status says alone.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { kubeConfigForToken, resolveClusterAccess } from '../../k8s/cluster-config';
import { catalogdAddresses, contentBaseVerdict } from './catalogd-address';

/** A kubeconfig as the sandbox writes one, its cluster naming catalogd's address when given. */
function kubeconfigFile(catalogd?: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'catalogd-address-')), 'kubeconfig');
  const extension = catalogd
    ? ['    extensions:', '    - name: olm-console.dev/catalogd', '      extension:', `        url: ${catalogd}`]
    : [];
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: c',
      '  cluster:',
      '    server: https://127.0.0.1:6443',
      ...extension,
      'users:',
      '- name: u',
      '  user:',
      '    token: t',
      'contexts:',
      '- name: x',
      '  context:',
      '    cluster: c',
      '    user: u',
      'current-context: x',
      '',
    ].join('\n'),
  );
  return file;
}

const verdict = (name: string, base: string, kc: KubeConfig, env: Record<string, string> = {}) =>
  contentBaseVerdict(name, base, catalogdAddresses(kc, env));

describe("catalogd's address", () => {
  test("in a pod, the release's Service address is catalogd's unless configured otherwise", () => {
    const kc = new KubeConfig();
    assert.deepEqual(verdict('acme', 'https://catalogd-service.olmv1-system.svc/catalogs/acme', kc), { ok: true });
    assert.deepEqual(verdict('acme', 'https://catalogd-service.olmv1-system.svc:443/catalogs/acme/', kc), {
      ok: true,
    });
    const env = { OLM_CONSOLE_CATALOGD_URL: 'https://catalogd.example:8443, https://other.example' };
    assert.equal(verdict('acme', 'https://catalogd-service.olmv1-system.svc/catalogs/acme', kc, env).ok, false);
    assert.equal(verdict('acme', 'https://catalogd.example:8443/catalogs/acme', kc, env).ok, true);
    assert.equal(verdict('acme', 'https://other.example/catalogs/acme', kc, env).ok, true);
  });

  test('another host, port, scheme, path or catalog name is not read, and the reason names where would be', () => {
    const kc = new KubeConfig();
    for (const base of [
      'https://169.254.169.254/catalogs/acme',
      'https://catalogd-service.olmv1-system.svc:8443/catalogs/acme',
      'http://catalogd-service.olmv1-system.svc/catalogs/acme',
      'https://catalogd-service.olmv1-system.svc/catalogs/other',
      'https://catalogd-service.olmv1-system.svc/catalogs/acme/../other',
      'https://user:pw@catalogd-service.olmv1-system.svc/catalogs/acme',
      'https://catalogd-service.olmv1-system.svc/catalogs/acme?x=1',
      'not a url',
    ]) {
      const v = verdict('acme', base, kc);
      assert.equal(v.ok, false, base);
      assert.match(
        !v.ok ? v.why : '',
        /is not where catalogd serves this catalog .*: only https:\/\/catalogd-service\.olmv1-system\.svc\/catalogs\/acme is read$/,
      );
    }
  });

  test('a setting that is not an https address is named in the reason, and reads nothing', () => {
    const v = verdict('acme', 'http://catalogd.example/catalogs/acme', new KubeConfig(), {
      OLM_CONSOLE_CATALOGD_URL: 'http://catalogd.example',
    });
    assert.equal(v.ok, false);
    assert.match(
      !v.ok ? v.why : '',
      /no address is read; catalogd's address "http:\/\/catalogd\.example" is not an https URL/,
    );
  });

  test("the kubeconfig's cluster names catalogd's address for every person's requests, as for its own user", () => {
    const file = kubeconfigFile('https://127.0.0.1:40123');
    const perUser = resolveClusterAccess({ kubeconfig: file, perUserTokens: true }, {});
    const alice = kubeConfigForToken(perUser, 'alice-token');
    assert.deepEqual(verdict('acme', 'https://127.0.0.1:40123/catalogs/acme', alice), { ok: true });
    assert.equal(verdict('acme', 'https://127.0.0.1:40124/catalogs/acme', alice).ok, false);
    const shared = resolveClusterAccess({ kubeconfig: file }, {}).shared!;
    assert.deepEqual(verdict('acme', 'https://127.0.0.1:40123/catalogs/acme', shared), { ok: true });
    // A kubeconfig without it: only the release's address.
    const plain = resolveClusterAccess({ kubeconfig: kubeconfigFile(), perUserTokens: true }, {});
    assert.equal(verdict('acme', 'https://127.0.0.1:40123/catalogs/acme', kubeConfigForToken(plain, 't2')).ok, false);
  });
});
