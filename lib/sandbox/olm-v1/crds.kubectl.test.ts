// The OLM v1 CRDs as kubectl sees them: explain, the CRD rules' refusals in kube-apiserver's words,
// defaults and immutable fields. Messages and rules are operator-controller v1.2.0's
// (config/base/*/crd/bases/olm.operatorframework.io_*.yaml); the error shape is kube-apiserver's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { withSandbox } from '../testing/sandbox-fixture';
import { kubectl, kubectlPath } from './testing/kubectl';

const catalog = (ref: string, extra = '') => `apiVersion: olm.operatorframework.io/v1
kind: ClusterCatalog
metadata:
  name: c1
spec:
  source:
    type: Image
    image:
      ref: "${ref}"${extra}
`;

const extension = (name: string, ns: string, pkg: string, extra = '') => `apiVersion: olm.operatorframework.io/v1
kind: ClusterExtension
metadata:
  name: ${name}
spec:
  namespace: ${ns}
  serviceAccount:
    name: installer
  source:
    sourceType: Catalog
    catalog:
      packageName: ${pkg}${extra}
`;

describe('OLM v1 CRDs through kubectl', { skip: kubectlPath ? false : 'kubectl is not installed' }, () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  const k = (args: string[], input?: string) => kubectl(sb.kubeconfigPath, args, input);
  before(async () => {
    sb = await withSandbox({ demo: false });
  });
  after(() => sb.close());

  test('kubectl explain shows the fields and the spec.source requirement', async () => {
    const r = await k(['explain', 'clustercatalogs.spec.source']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /GROUP:\s+olm\.operatorframework\.io/);
    assert.match(r.stdout, /image\s+<Object>/);
    assert.match(r.stdout, /type\s+<string> -required-/);
    const ce = await k(['explain', 'clusterextension.spec.source.catalog']);
    assert.equal(ce.code, 0, ce.stderr);
    assert.match(ce.stdout, /packageName\s+<string> -required-/);
    assert.match(ce.stdout, /upgradeConstraintPolicy\s+<string>/);
  });

  test('an image reference without a tag or digest is refused with the rule message', async () => {
    const r = await k(['apply', '-f', '-'], catalog('quay.io/operatorhubio/catalog'));
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /The ClusterCatalog "c1" is invalid: spec\.source\.image\.ref: Invalid value: "string": must end with a digest or a tag/,
    );
    assert.equal((await k(['get', 'clustercatalogs', '-o', 'name'])).stdout, '');
  });

  test('a short digest and a poll interval with a digest are refused', async () => {
    const r = await k(['apply', '-f', '-'], catalog('quay.io/a/b@sha256:abcd', '\n      pollIntervalMinutes: 5'));
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /spec\.source\.image\.ref: Invalid value: "string": digest is not valid\. the encoded string must be at least 32 characters/,
    );
    assert.match(
      r.stderr,
      /spec\.source\.image: Invalid value: "object": cannot specify pollIntervalMinutes while using digest-based image/,
    );
  });

  test('a valid catalog gets its defaults (availabilityMode Available, priority 0)', async () => {
    const r = await k(['apply', '-f', '-'], catalog('quay.io/operatorhubio/catalog:latest'));
    assert.equal(r.code, 0, r.stderr);
    const got = JSON.parse((await k(['get', 'clustercatalog', 'c1', '-o', 'json'])).stdout) as {
      spec: { availabilityMode: string; priority: number };
    };
    assert.equal(got.spec.availabilityMode, 'Available');
    assert.equal(got.spec.priority, 0);
    await k(['delete', 'clustercatalog', 'c1', '--wait=false']);
  });

  test('ClusterExtension: a bad version range and channel are refused; namespace and package are immutable', async () => {
    const bad = await k(
      ['apply', '-f', '-'],
      extension('e1', 'default', 'argocd', '\n      version: "1.2 - 1.4"\n      channels: ["Alpha"]'),
    );
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /spec\.source\.catalog\.version: Invalid value: "string": invalid version expression/);
    assert.match(
      bad.stderr,
      /spec\.source\.catalog\.channels\[0\]: Invalid value: "string": channels entries must be valid DNS1123 subdomains/,
    );
    const ok = await k(
      ['apply', '-f', '-'],
      extension('e1', 'default', 'argocd', '\n      version: ">=1.2, <2 || 3.x"'),
    );
    assert.equal(ok.code, 0, ok.stderr);
    const got = JSON.parse((await k(['get', 'clusterextension', 'e1', '-o', 'json'])).stdout) as {
      spec: { source: { catalog: { upgradeConstraintPolicy: string } } };
    };
    assert.equal(got.spec.source.catalog.upgradeConstraintPolicy, 'CatalogProvided');
    const moved = await k(['apply', '-f', '-'], extension('e1', 'kube-system', 'etcd'));
    assert.notEqual(moved.code, 0);
    assert.match(moved.stderr, /spec\.namespace: Invalid value: "string": namespace is immutable/);
    assert.match(moved.stderr, /spec\.source\.catalog\.packageName: Invalid value: "string": packageName is immutable/);
    await k(['delete', 'clusterextension', 'e1', '--wait=false']);
  });
});
