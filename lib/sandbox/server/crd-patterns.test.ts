// Schema patterns over HTTPS, as kube-apiserver treats them: Go's RE2, linear in the value, so a
// catalog's `^(a+)+$` cannot stall the API server; a CRD with a pattern RE2 refuses is itself
// refused; one stored before that check fails writes with a 422 rather than hanging or a 500.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '../../k8s/client';
import { isKubeError, type KubeError } from '../../k8s/errors';
import type { ResourceType } from '../../olm/resources/common';
import { clientAs, waitFor } from '../../server/testing/cluster';
import { withSandbox } from '../testing/sandbox-fixture';
import { CRD_RESOURCE, storeKey } from './resources';

const CRDS: ResourceType = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  namespaced: false,
  kind: 'CustomResourceDefinition',
};
const NAMESPACES: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'namespaces',
  namespaced: false,
  kind: 'Namespace',
};
const IN_DEFAULT = { namespace: 'default' };
const LOOKAHEAD_ERROR = 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`';

/** A CRD example.com/v1 `kind` whose spec has one string field, `name`, with the given pattern. */
function crdWithPattern(plural: string, kind: string, pattern: string) {
  const spec = { type: 'object', properties: { name: { type: 'string', pattern } } };
  const schema = { type: 'object', properties: { spec } };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.example.com` },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}

const kindOf = (plural: string, kind: string): ResourceType => ({
  group: 'example.com',
  version: 'v1',
  plural,
  namespaced: true,
  kind,
});
const custom = (kind: string, name: string, value: string) => ({
  apiVersion: 'example.com/v1',
  kind,
  metadata: { name, namespace: 'default' },
  spec: { name: value },
});

function refusal(err: unknown): { message: string; causes: unknown } {
  const got = err instanceof Error ? err.message : `an answer: ${JSON.stringify(err)?.slice(0, 200)}`;
  assert.ok(isKubeError(err, 422), `expected a 422, got ${got}`);
  const details = (err as KubeError).details as { causes?: unknown } | undefined;
  return { message: (err as KubeError).message, causes: details?.causes };
}

/** Until the CRD's kind is served (an empty list of it answers). */
function served(kube: KubeClient, t: ResourceType): Promise<true> {
  const probe = async () => ((await kube.listAll(t, IN_DEFAULT)).items.length === 0 ? true : undefined);
  return waitFor(`${t.plural} served`, probe);
}

describe('CRD schema patterns', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let kube: KubeClient;
  before(async () => {
    sb = await withSandbox({ demo: false });
    kube = clientAs(sb, 'admin');
  });
  after(() => sb.close());

  // On a backtracking engine this create runs for hours and the in-process sandbox (and this
  // test) hang; the timeout only ends such a run, it is not a budget.
  const generous = { timeout: 300_000 };
  const catastrophic = 'a catastrophic pattern answers a 40-character create with a 422; the sandbox answers others';
  test(catastrophic, generous, async () => {
    const widgets = kindOf('widgets', 'Widget');
    await kube.create(CRDS, crdWithPattern('widgets', 'Widget', '^(a+)+$'));
    await served(kube, widgets);
    const value = `${'a'.repeat(40)}!`;
    const [err, namespaces] = await Promise.all([
      kube.create(widgets, custom('Widget', 'w', value), IN_DEFAULT).catch((e: unknown) => e),
      kube.listAll(NAMESPACES),
    ]);
    const message = `Invalid value: "${value}": spec.name in body should match '^(a+)+$'`;
    assert.deepEqual(refusal(err).causes, [{ reason: 'FieldValueInvalid', message, field: 'spec.name' }]);
    assert.ok(namespaces.items.length > 0);
    // The pattern still accepts what it matches.
    await kube.create(widgets, custom('Widget', 'ok', 'a'.repeat(40)), IN_DEFAULT);
  });

  test("a CRD with a lookahead pattern is refused in kube-apiserver's words, and not stored", async () => {
    const err = await kube.create(CRDS, crdWithPattern('peeks', 'Peek', '(?=a)')).catch((e: unknown) => e);
    const field = 'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[name].pattern';
    const detail = `Invalid value: "(?=a)": must be a valid regular expression, but isn't: ${LOOKAHEAD_ERROR}`;
    const r = refusal(err);
    const what = 'CustomResourceDefinition.apiextensions.k8s.io "peeks.example.com"';
    assert.equal(r.message, `${what} is invalid: ${field}: ${detail}`);
    assert.deepEqual(r.causes, [{ reason: 'FieldValueInvalid', message: detail, field }]);
    const gone = await kube.get(CRDS, 'peeks.example.com').catch((e: unknown) => e);
    assert.ok(isKubeError(gone, 404), 'the refused CRD is not stored');
  });

  test('a valid CRD updated to a backreference pattern is refused', async () => {
    await kube.create(CRDS, crdWithPattern('echoes', 'Echo', '^[a-z]+$'));
    const patch = { spec: { versions: crdWithPattern('echoes', 'Echo', '(a)\\1').spec.versions } };
    const err = await kube.patch(CRDS, 'echoes.example.com', patch, { type: 'merge' }).catch((e: unknown) => e);
    const why = "must be a valid regular expression, but isn't: error parsing regexp: invalid escape sequence: `\\1`";
    assert.ok(refusal(err).message.endsWith(`.pattern: Invalid value: "(a)\\\\1": ${why}`), refusal(err).message);
  });

  test('a CRD stored with a lookahead before the check makes writes a 422, yet takes labels and deletes', async () => {
    // Written to the store directly, as a data file from before this check would hold it.
    sb.store.create(storeKey(CRD_RESOURCE), crdWithPattern('relics', 'Relic', '(?=a)'));
    sb.api.syncCrds();
    const relics = kindOf('relics', 'Relic');
    await served(kube, relics);
    const err = await kube.create(relics, custom('Relic', 'r', 'abc'), IN_DEFAULT).catch((e: unknown) => e);
    const why = `(?=a), but pattern is invalid: ${LOOKAHEAD_ERROR}`;
    const message = `Invalid value: "abc": spec.name in body should match '${why}'`;
    assert.deepEqual(refusal(err).causes, [{ reason: 'FieldValueInvalid', field: 'spec.name', message }]);
    await kube.patch(CRDS, 'relics.example.com', { metadata: { labels: { kept: 'yes' } } }, { type: 'merge' });
    await kube.delete(CRDS, 'relics.example.com');
    await waitFor('relics CRD gone', async () => {
      const e = await kube.get(CRDS, 'relics.example.com').catch((x: unknown) => x);
      return isKubeError(e, 404) ? true : undefined;
    });
  });
});
