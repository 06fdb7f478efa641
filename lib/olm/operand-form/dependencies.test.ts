// fieldDependency as Kasten K10's CSV (certified-operators-v4.18, k10-kasten-operator-rhmp) uses
// it: the route's host only once the route is enabled, token auth only while basic auth is off.
// K10's CRD leaves its spec open, so the fields come from the descriptors alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dependencyMet } from './dependencies';
import { buildFormModel, walkFields } from './schema';
import { validateObject } from './validate';

const X = 'urn:alm:descriptor:com.tectonic.ui:';
const descriptors = [
  { path: 'auth.basicAuth.enabled', displayName: 'Enable basic auth', 'x-descriptors': [`${X}booleanSwitch`] },
  {
    path: 'auth.basicAuth.secretName',
    displayName: 'Secret Name',
    'x-descriptors': [`${X}fieldDependency:auth.basicAuth.enabled:true`, `${X}text`],
  },
  {
    path: 'auth.tokenAuth.enabled',
    displayName: 'Enable Token Based Authentication',
    'x-descriptors': [`${X}booleanSwitch`, `${X}fieldDependency:auth.basicAuth.enabled:false`],
  },
  {
    path: 'route.enabled',
    displayName: 'Enable K10 dashboard to be exposed via route',
    'x-descriptors': [`${X}booleanSwitch`],
  },
  {
    path: 'route.host',
    displayName: 'FQDN for name-based virtual host',
    'x-descriptors': [`${X}fieldDependency:route.enabled:true`, `${X}text`],
  },
  { path: 'mode', displayName: 'Mode', 'x-descriptors': [`${X}select:Kafka`, `${X}select:Direct`] },
  { path: 'kafka.address', displayName: 'Kafka address', 'x-descriptors': [`${X}fieldDependency:mode:Kafka`] },
  {
    path: 'image.pullPolicy',
    displayName: 'Pull policy',
    'x-descriptors': ['urn:alm:descriptor:com.tectonic.ui:imagePullPolicy'],
  },
];
const model = buildFormModel(
  { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
  descriptors,
);
const field = (path: string) => [...walkFields(model.spec.fields)].find((w) => w.path === path)!.field;
const shown = (path: string, spec: Record<string, unknown>) => dependencyMet(field(path), { spec }, model.spec);

test('a dependent field is shown only while its control holds the value', () => {
  assert.equal(shown('route.host', {}), false, 'route not enabled');
  assert.equal(shown('route.host', { route: { enabled: false } }), false);
  assert.equal(shown('route.host', { route: { enabled: true } }), true);
  assert.equal(shown('auth.tokenAuth.enabled', { auth: { basicAuth: { enabled: false } } }), true);
  assert.equal(shown('auth.tokenAuth.enabled', { auth: { basicAuth: { enabled: true } } }), false);
  assert.equal(shown('kafka.address', { mode: 'Kafka' }), true);
  assert.equal(shown('kafka.address', { mode: 'Direct' }), false);
  assert.equal(shown('route.enabled', {}), true, 'a field with no dependency');
});

test('an unset control counts as its schema default', () => {
  const m = buildFormModel(
    {
      type: 'object',
      properties: {
        spec: { type: 'object', properties: { tls: { type: 'boolean', default: true }, secret: { type: 'string' } } },
      },
    },
    [{ path: 'secret', 'x-descriptors': [`${X}fieldDependency:tls:true`] }],
  );
  const secret = m.spec.fields.find((f) => f.key === 'secret')!;
  assert.equal(dependencyMet(secret, { spec: {} }, m.spec), true);
  assert.equal(dependencyMet(secret, { spec: { tls: false } }, m.spec), false);
});

test('a hidden required field is not asked for; shown, it is', () => {
  const m = buildFormModel(
    {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          required: ['secret'],
          properties: { tls: { type: 'boolean' }, secret: { type: 'string' } },
        },
      },
    },
    [{ path: 'secret', 'x-descriptors': [`${X}fieldDependency:tls:true`] }],
  );
  const required = (spec: Record<string, unknown>) =>
    validateObject(m, { metadata: { name: 'a' }, spec })
      .filter((i) => i.field === 'spec.secret')
      .map((i) => i.message);
  assert.deepEqual(required({ tls: false }), []);
  assert.deepEqual(required({ tls: true }), ['Required value']);
});

test('imagePullPolicy offers the values Kubernetes accepts', () => {
  const f = field('image.pullPolicy');
  assert.equal(f.type, 'string');
  assert.deepEqual(f.type === 'string' ? [f.widget, f.enum] : [], ['select', ['Always', 'IfNotPresent', 'Never']]);
});
