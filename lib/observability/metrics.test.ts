import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clusterRequests, kubeVerb, metricsText } from './metrics';

test('Kubernetes verbs from method and path', () => {
  assert.equal(kubeVerb('GET', '/api/v1/namespaces'), 'list');
  assert.equal(kubeVerb('GET', '/api/v1/namespaces/team1'), 'get');
  assert.equal(kubeVerb('GET', '/apis/operators.coreos.com/v1alpha1/namespaces/team1/subscriptions'), 'list');
  assert.equal(kubeVerb('GET', '/apis/operators.coreos.com/v1alpha1/namespaces/team1/subscriptions/x'), 'get');
  assert.equal(kubeVerb('GET', '/apis/operators.coreos.com/v1alpha1/subscriptions'), 'list');
  assert.equal(kubeVerb('GET', '/apis/operators.coreos.com/v1alpha1/subscriptions', { watch: true }), 'watch');
  assert.equal(kubeVerb('PATCH', '/x'), 'patch');
  assert.equal(kubeVerb('POST', '/x'), 'create');
});

test('the metrics are served in Prometheus text, with the process metrics', async () => {
  clusterRequests.inc({ verb: 'get', code: '200' });
  const text = await metricsText();
  assert.match(text, /^# TYPE olm_console_cluster_requests_total counter$/m);
  assert.match(text, /^olm_console_cluster_requests_total\{verb="get",code="200"\} \d+$/m);
  assert.match(text, /^olm_console_process_cpu_seconds_total /m);
});
