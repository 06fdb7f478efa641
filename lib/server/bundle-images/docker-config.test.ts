// Pull secrets as the kubelet reads them (Kubernetes' "Pull an Image from a Private Registry" and
// the credentialprovider's DockerConfigEntry): `.dockerconfigjson` with `auths`, the older
// `.dockercfg` without, `auth` as base64 of user:password winning over the separate fields, an
// identity token; and refused whole, with the reason, when any part is malformed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { credentialFor, parseDockerConfig } from './docker-config';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const json = (auths: Record<string, unknown>) => ({ '.dockerconfigjson': b64(JSON.stringify({ auths })) });

describe('reading a pull secret', () => {
  test('auth, username and password, identity token; Docker Hub and scheme-prefixed keys', () => {
    const creds = parseDockerConfig(
      'kubernetes.io/dockerconfigjson',
      json({
        'https://index.docker.io/v1/': { auth: b64('hub:p:w'), username: 'ignored', password: 'ignored' },
        'Quay.io/team': { username: 'q', password: 'pw' },
        'registry.example.com:5000': { identitytoken: 'rt' },
      }),
    );
    assert.deepEqual(creds, [
      { host: 'docker.io', path: '', username: 'hub', password: 'p:w' },
      { host: 'quay.io', path: 'team', username: 'q', password: 'pw' },
      { host: 'registry.example.com:5000', path: '', identityToken: 'rt' },
    ]);
  });

  test('the older .dockercfg has no auths level', () => {
    const data = { '.dockercfg': b64(JSON.stringify({ 'quay.io': { auth: b64('a:b') } })) };
    assert.deepEqual(parseDockerConfig('kubernetes.io/dockercfg', data), [
      { host: 'quay.io', path: '', username: 'a', password: 'b' },
    ]);
  });

  test('malformed secrets are refused whole, with the reason', () => {
    const cases: [string | undefined, Record<string, string>, RegExp][] = [
      ['Opaque', json({}), /of type Opaque, not kubernetes\.io\/dockerconfigjson/],
      ['kubernetes.io/dockerconfigjson', {}, /has no \.dockerconfigjson/],
      ['kubernetes.io/dockerconfigjson', { '.dockerconfigjson': b64('{') }, /is not JSON/],
      ['kubernetes.io/dockerconfigjson', { '.dockerconfigjson': b64('{}') }, /has no auths object/],
      ['kubernetes.io/dockerconfigjson', json({ 'quay.io': { auth: b64('no-colon') } }), /not base64 of user:password/],
      ['kubernetes.io/dockerconfigjson', json({ 'quay.io': { auth: 'not base64!' } }), /auth that is not base64/],
      ['kubernetes.io/dockerconfigjson', json({ 'quay.io': { password: 7 } }), /password that is not a string/],
      ['kubernetes.io/dockerconfigjson', json({ 'quay.io': { email: 'a@b' } }), /no auth, username or identitytoken/],
      ['kubernetes.io/dockerconfigjson', json({ 'a b': { auth: b64('a:b') } }), /which is not a registry/],
    ];
    for (const [type, data, reason] of cases) {
      const r = parseDockerConfig(type, data);
      assert.ok('error' in r, JSON.stringify(r));
      assert.match(r.error, reason);
    }
  });
});

describe('which credential a repository gets', () => {
  const creds = [
    { host: 'quay.io', path: '', username: 'all' },
    { host: 'quay.io', path: 'team', username: 'team' },
    { host: 'quay.io', path: 'team/app', username: 'app' },
  ];
  test('the longest path that is a prefix at a slash, else the registry-wide one', () => {
    assert.equal(credentialFor('Quay.io', 'team/app', creds)?.username, 'app');
    assert.equal(credentialFor('quay.io', 'team/other', creds)?.username, 'team');
    assert.equal(credentialFor('quay.io', 'teamwork/x', creds)?.username, 'all');
    assert.equal(credentialFor('ghcr.io', 'team/app', creds), undefined);
  });
});
