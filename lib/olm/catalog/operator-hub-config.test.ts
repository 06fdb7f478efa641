// OperatorHub `cluster` against what OpenShift documents and does: openshift/api
// config/v1/types_operatorhub.go ("If this is true, a specific entry in sources can be used to
// enable a default source"; "the configuration present in sources will take precedence"), and
// operator-marketplace's pkg/operatorhub (status "Success" / "Error", "Not present in the default
// definitions") and pkg/defaults (annotation operatorframework.io/managed-by=marketplace-operator;
// a disabled default is deleted only when it carries it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  defaultSourceStates,
  effectiveSources,
  hubSourceStatuses,
  knownDefaultSources,
  marketplaceManagedNote,
  planSwitch,
  specAfterSwitch,
  switchPatch,
  type OperatorHub,
} from './operator-hub-config';

const DEFAULTS = ['certified-operators', 'community-operators', 'redhat-operators'];
const managed = (name: string) => ({
  metadata: {
    name,
    namespace: 'openshift-marketplace',
    annotations: { 'operatorframework.io/managed-by': 'marketplace-operator' },
  },
});
const sub = (ns: string, name: string, source: string, sourceNamespace = 'openshift-marketplace') => ({
  metadata: { name, namespace: ns },
  spec: { name, source, sourceNamespace },
});

test('an empty spec enables every default; disableAllDefaultSources disables them; an entry wins over it', () => {
  assert.deepEqual(
    [...effectiveSources({}, DEFAULTS)],
    DEFAULTS.map((n) => [n, false]),
  );
  assert.deepEqual(
    [...effectiveSources({ disableAllDefaultSources: true }, DEFAULTS)],
    DEFAULTS.map((n) => [n, true]),
  );
  const mixed = effectiveSources(
    { disableAllDefaultSources: true, sources: [{ name: 'community-operators', disabled: false }] },
    DEFAULTS,
  );
  assert.equal(mixed.get('community-operators'), false);
  assert.equal(mixed.get('redhat-operators'), true);
  assert.equal(
    effectiveSources({ sources: [{ name: 'redhat-operators', disabled: true }] }, DEFAULTS).get('redhat-operators'),
    true,
  );
});

test('status: Success per default, Error for a name that is no default source', () => {
  const effective = effectiveSources({ sources: [{ name: 'my-catalog', disabled: true }] }, DEFAULTS);
  assert.deepEqual(
    hubSourceStatuses(
      effective,
      DEFAULTS,
      new Map([['redhat-operators', 'namespaces "openshift-marketplace" not found']]),
    ),
    [
      { name: 'certified-operators', disabled: false, status: 'Success' },
      { name: 'community-operators', disabled: false, status: 'Success' },
      { name: 'my-catalog', disabled: true, status: 'Error', message: 'Not present in the default definitions' },
      {
        name: 'redhat-operators',
        disabled: false,
        status: 'Error',
        message: 'namespaces "openshift-marketplace" not found',
      },
    ],
  );
});

test('the defaults a console can know: from status (not the names reported as no default) and the managed annotation', () => {
  const hub: OperatorHub = {
    status: {
      sources: [
        { name: 'redhat-operators', status: 'Success' },
        { name: 'mine', status: 'Error', message: 'Not present in the default definitions' },
      ],
    },
  };
  const unmanaged = { metadata: { name: 'extra', namespace: 'openshift-marketplace' } };
  const elsewhere = { ...managed('olm-thing'), metadata: { ...managed('olm-thing').metadata, namespace: 'olm' } };
  assert.deepEqual(knownDefaultSources(hub, [managed('certified-operators'), unmanaged, elsewhere]), [
    'certified-operators',
    'redhat-operators',
  ]);
});

test("a source's switch writes its entry in place; the merge patch carries the whole list", () => {
  const spec = {
    sources: [
      { name: 'redhat-operators', disabled: true },
      { name: 'community-operators', disabled: false },
    ],
  };
  assert.deepEqual(specAfterSwitch(spec, { kind: 'source', name: 'community-operators', disabled: true }).sources, [
    { name: 'redhat-operators', disabled: true },
    { name: 'community-operators', disabled: true },
  ]);
  assert.deepEqual(switchPatch(spec, { kind: 'source', name: 'certified-operators', disabled: true }), {
    spec: { sources: [...spec.sources, { name: 'certified-operators', disabled: true }] },
  });
  assert.deepEqual(switchPatch(spec, { kind: 'all', disabled: true }), { spec: { disableAllDefaultSources: true } });
  assert.deepEqual(spec.sources.length, 2, 'the spec read is not changed');
});

test('disabling a source deletes its CatalogSource and counts the operators that then report CatalogSourcesUnhealthy', () => {
  const plan = planSwitch(
    { spec: {} },
    { kind: 'source', name: 'redhat-operators', disabled: true },
    {
      defaults: DEFAULTS,
      catalogSources: DEFAULTS.map(managed),
      subscriptions: [
        sub('a', 'x', 'redhat-operators'),
        sub('b', 'y', 'redhat-operators'),
        sub('c', 'z', 'redhat-operators', 'olm'),
        sub('d', 'w', 'community-operators'),
      ],
    },
  );
  assert.equal(plan.noChange, false);
  assert.equal(plan.effects.length, 1);
  const [e] = plan.effects;
  assert.equal(e!.catalogSource, 'deleted');
  assert.deepEqual(
    e!.subscriptions.map((s) => `${s.namespace}/${s.name}`),
    ['a/x', 'b/y'],
  );
  assert.match(
    e!.text,
    /deletes CatalogSource openshift-marketplace\/redhat-operators.*2 installed operators subscribe to it and will report CatalogSourcesUnhealthy/,
  );
});

test('a CatalogSource without the marketplace annotation is kept when its source is disabled', () => {
  const plan = planSwitch(
    {},
    { kind: 'source', name: 'community-operators', disabled: true },
    {
      defaults: DEFAULTS,
      catalogSources: [{ metadata: { name: 'community-operators', namespace: 'openshift-marketplace' } }],
      subscriptions: [],
    },
  );
  assert.equal(plan.effects[0]!.catalogSource, 'kept');
  assert.match(
    plan.effects[0]!.text,
    /stays: it lacks the annotation operatorframework\.io\/managed-by=marketplace-operator/,
  );
});

test('enabling creates the CatalogSource again; an "all" switch says which sources their own entry holds', () => {
  const hub: OperatorHub = {
    spec: { disableAllDefaultSources: true, sources: [{ name: 'community-operators', disabled: false }] },
  };
  const on = planSwitch(
    hub,
    { kind: 'all', disabled: false },
    { defaults: DEFAULTS, catalogSources: [managed('community-operators')], subscriptions: [] },
  );
  assert.deepEqual(
    on.effects.map((e) => [e.name, e.catalogSource]),
    [
      ['certified-operators', 'created'],
      ['redhat-operators', 'created'],
    ],
  );
  assert.deepEqual(on.heldBySourceEntry, []);
  const off = planSwitch(
    { spec: { sources: [{ name: 'community-operators', disabled: false }] } },
    { kind: 'all', disabled: true },
    { defaults: DEFAULTS, catalogSources: DEFAULTS.map(managed), subscriptions: [] },
  );
  assert.deepEqual(
    off.effects.map((e) => e.name),
    ['certified-operators', 'redhat-operators'],
  );
  assert.deepEqual(off.heldBySourceEntry, [{ name: 'community-operators', disabled: false }]);
  const same = planSwitch(
    hub,
    { kind: 'source', name: 'community-operators', disabled: false },
    { defaults: DEFAULTS, catalogSources: [], subscriptions: [] },
  );
  assert.equal(same.noChange, true);
  assert.equal(
    planSwitch(
      hub,
      { kind: 'source', name: 'mine', disabled: true },
      { defaults: DEFAULTS, catalogSources: [], subscriptions: [] },
    ).notDefault,
    'mine',
  );
});

test("each default's state says what decides it and whether the operator has caught up", () => {
  const hub: OperatorHub = {
    spec: { disableAllDefaultSources: true, sources: [{ name: 'community-operators', disabled: false }] },
    status: {
      sources: [
        { name: 'community-operators', disabled: false, status: 'Success' },
        { name: 'redhat-operators', disabled: false, status: 'Success' },
      ],
    },
  };
  assert.deepEqual(
    defaultSourceStates(hub, DEFAULTS).map((s) => [s.name, s.disabled, s.decidedBy, s.pending]),
    [
      ['certified-operators', true, 'disableAllDefaultSources', true],
      ['community-operators', false, 'source entry', false],
      ['redhat-operators', true, 'disableAllDefaultSources', true],
    ],
  );
});

test('deleting or editing a managed default is undone by the marketplace operator; other catalogs get no note', () => {
  assert.match(
    marketplaceManagedNote(managed('redhat-operators'), 'delete') ?? '',
    /creates the CatalogSource again.*disable redhat-operators under Default sources/,
  );
  assert.match(marketplaceManagedNote(managed('redhat-operators'), 'update') ?? '', /puts its own spec back/);
  assert.equal(
    marketplaceManagedNote({ metadata: { name: 'acme', namespace: 'openshift-marketplace' } }, 'delete'),
    undefined,
  );
});
