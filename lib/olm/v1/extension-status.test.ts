// A ClusterExtension's state in words, over the conditions operator-controller v1.2.0 writes for
// each outcome (controllers/clusterextension_controller.go, common_controller.go; the table in
// docs/olm-v1/conditions.md): installed,
// missing ServiceAccount, resolution failure with a bundle installed, Blocked, a spec change not yet
// observed, and deprecations apart from the resolution error that fills the Deprecated family.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Condition } from '../resources/common';
import { extensionDeprecations, extensionStatus } from './extension-status';

const c = (type: string, status: Condition['status'], reason: string, message: string, gen = 1): Condition => ({
  type,
  status,
  reason,
  message,
  observedGeneration: gen,
});
const installedOk = c('Installed', 'True', 'Succeeded', 'Installed bundle quay.io/x/p-bundle:1.0.0 successfully');
const bundle = { name: 'p.v1.0.0', version: '1.0.0' };

test('installed and desired state reached: Installed, with v1’s message', () => {
  const s = extensionStatus({
    generation: 1,
    deleting: false,
    conditions: [installedOk, c('Progressing', 'True', 'Succeeded', 'desired state reached')],
    installed: bundle,
  });
  assert.equal(s.label, 'Installed');
  assert.equal(s.severity, 'ok');
  assert.equal(s.detail, 'p.v1.0.0 (1.0.0) is installed: Installed bundle quay.io/x/p-bundle:1.0.0 successfully');
});

test('a missing ServiceAccount: not installed, and v1’s reason for retrying', () => {
  const s = extensionStatus({
    generation: 1,
    deleting: false,
    conditions: [
      c('Installed', 'Unknown', 'Failed', 'service account "sa" not found in namespace "ns": unable to authenticate…'),
      c('Progressing', 'True', 'Retrying', 'installation cannot proceed due to missing ServiceAccount'),
    ],
  });
  assert.equal(s.label, 'Not installed');
  assert.equal(s.severity, 'error');
  assert.equal(s.detail, 'Nothing is installed; v1 retries: installation cannot proceed due to missing ServiceAccount');
});

test('a failed resolution with a bundle installed keeps it installed, retrying', () => {
  const err = 'error upgrading from currently installed version "1.0.0": no bundles found for package "p"';
  const s = extensionStatus({
    generation: 2,
    deleting: false,
    conditions: [c('Installed', 'True', 'Succeeded', 'x', 2), c('Progressing', 'True', 'Retrying', err, 2)],
    installed: bundle,
  });
  assert.equal(s.label, 'Installed, retrying');
  assert.equal(s.severity, 'warning');
  assert.ok(s.detail.endsWith(err));
});

test('Blocked (a terminal error) says v1 will not retry', () => {
  const s = extensionStatus({
    generation: 1,
    deleting: false,
    conditions: [
      c('Installed', 'False', 'Failed', 'No bundle installed'),
      c('Progressing', 'False', 'Blocked', 'bad image'),
    ],
  });
  assert.equal(s.label, 'Blocked');
  assert.equal(s.severity, 'error');
});

test('conditions for an older generation: the latest change is not acted on yet', () => {
  const s = extensionStatus({
    generation: 3,
    deleting: false,
    conditions: [installedOk, c('Progressing', 'True', 'Succeeded', 'desired state reached', 2)],
    installed: bundle,
  });
  assert.equal(s.label, 'Updating');
  assert.equal(s.severity, 'progressing');
});

test('just created (finalizers only): pending; being deleted: uninstalling', () => {
  assert.equal(extensionStatus({ deleting: false, conditions: [] }).label, 'Pending');
  assert.equal(extensionStatus({ deleting: true, conditions: [installedOk] }).label, 'Uninstalling');
});

test('deprecations come from True/Deprecated conditions, one per "\\n"-prefixed message; Failed is not one', () => {
  assert.deepEqual(
    extensionDeprecations([
      c('Deprecated', 'True', 'Deprecated', 'gone;old'),
      c('PackageDeprecated', 'True', 'Deprecated', '\ngone'),
      c('ChannelDeprecated', 'True', 'Deprecated', '\nold\nolder'),
      c('BundleDeprecated', 'False', 'Deprecated', ''),
    ]),
    [
      { of: 'package', message: 'gone' },
      { of: 'channel', message: 'old' },
      { of: 'channel', message: 'older' },
    ],
  );
  const err = 'no bundles found for package "ghost"';
  assert.deepEqual(
    extensionDeprecations([
      c('PackageDeprecated', 'False', 'Failed', err),
      c('BundleDeprecated', 'False', 'Failed', err),
    ]),
    [],
  );
});
