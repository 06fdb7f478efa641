// References as the distribution project's reference grammar reads them (its reference package
// and Docker's normalisation: docker.io, library/ for a single name, latest when neither tag nor
// digest), and the Bearer challenge of its token authentication specification.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseImageReference } from './image-reference';
import { parseBearerChallenge } from './registry-token';

const D = `sha256:${'a'.repeat(64)}`;

test('a registry is the first component only when it has a dot, a port or is localhost', () => {
  assert.deepEqual(parseImageReference(`quay.io/kube-green/bundle@${D}`), {
    registry: 'quay.io',
    repository: 'kube-green/bundle',
    digest: D,
  });
  assert.deepEqual(parseImageReference('127.0.0.1:5000/bundles/gatekeeper:v3.21.0'), {
    registry: '127.0.0.1:5000',
    repository: 'bundles/gatekeeper',
    tag: 'v3.21.0',
  });
  assert.deepEqual(parseImageReference('localhost/x'), { registry: 'localhost', repository: 'x', tag: 'latest' });
  assert.deepEqual(parseImageReference('org/bundle:1'), { registry: 'docker.io', repository: 'org/bundle', tag: '1' });
  assert.deepEqual(parseImageReference('busybox'), {
    registry: 'docker.io',
    repository: 'library/busybox',
    tag: 'latest',
  });
});

test('upper case, a bad digest or a bad tag is not a reference', () => {
  assert.match((parseImageReference('quay.io/Org/bundle') as { error: string }).error, /invalid repository name/);
  assert.match((parseImageReference('quay.io/org/bundle@sha256:abc') as { error: string }).error, /digest/);
  assert.match((parseImageReference(`quay.io/org/bundle@md5:${'a'.repeat(32)}`) as { error: string }).error, /digest/);
  assert.match((parseImageReference('quay.io/org/bundle:-x') as { error: string }).error, /invalid tag/);
});

test("a Bearer challenge's realm, service and scope; any other scheme is not one", () => {
  assert.deepEqual(
    parseBearerChallenge(
      'Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:samalba/my-app:pull,push"',
    ),
    {
      realm: 'https://auth.docker.io/token',
      service: 'registry.docker.io',
      scope: 'repository:samalba/my-app:pull,push',
    },
  );
  assert.equal(parseBearerChallenge('Basic realm="Registry Realm"'), undefined);
  assert.equal(parseBearerChallenge('Bearer service="x"'), undefined);
});
