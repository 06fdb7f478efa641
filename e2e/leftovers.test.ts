// "What is left" after a failed uninstall, in Debian's Chromium against a production build and the
// sandbox: Flagpole with a flag held by a finalizer no one removes; the API server fails the CSV's
// delete (the sandbox's failDelete fault, as an etcd timeout would), so the uninstall stops after
// the Subscription. The list calls the operator half gone; "See what is left" shows each part and
// why; the CSV, the finalizer and the CRD are chosen, previewed step by step and cleaned up, and
// the OperatorGroup not chosen stays. Checked with the Kubernetes API.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { isKubeError } from '../lib/k8s/errors';
import { kubeRequest } from '../lib/k8s/http';
import { CSV_TYPE } from '../lib/olm/resources/cluster-service-version';
import { OPERATOR_GROUP_TYPE } from '../lib/olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '../lib/olm/resources/subscription';
import { ensureNamespace, waitFor, waitForCsv } from '../lib/server/testing/cluster';
import { useHarness } from './support/harness';

const FLAGS = { group: 'flagpole.example.com', version: 'v1', plural: 'flags', namespaced: true, kind: 'Flag' };
const CRD = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  namespaced: false,
  kind: 'CustomResourceDefinition',
};

describe('What is left after a failed uninstall', () => {
  let csv = '';
  const h = useHarness({
    suite: 'leftovers',
    seed: async (kube) => {
      await ensureNamespace(kube, 'flags');
      await ensureNamespace(kube, 'elsewhere');
      await kube.create(OPERATOR_GROUP_TYPE, {
        metadata: { name: 'flags-og', namespace: 'flags', labels: { 'olm-console.io/created-by': 'olm-console' } },
        spec: { targetNamespaces: ['flags'] },
      });
      await kube.create<Subscription>(SUBSCRIPTION_TYPE, {
        metadata: { name: 'flagpole', namespace: 'flags' },
        spec: {
          name: 'flagpole',
          source: 'olm-console-demo',
          sourceNamespace: 'olm',
          channel: 'stable',
          installPlanApproval: 'Automatic',
        },
      });
      csv = await waitFor(
        'flagpole installed',
        async () => (await kube.get<Subscription>(SUBSCRIPTION_TYPE, 'flagpole', 'flags')).status?.installedCSV,
      );
      await waitForCsv(kube, 'flags', csv);
      await kube.create(
        FLAGS,
        {
          apiVersion: 'flagpole.example.com/v1',
          kind: 'Flag',
          metadata: { name: 'dark-mode', namespace: 'flags', finalizers: ['flagpole.example.com/audit'] },
        },
        { namespace: 'flags' },
      );
      await kube.create(
        FLAGS,
        { apiVersion: 'flagpole.example.com/v1', kind: 'Flag', metadata: { name: 'stray', namespace: 'elsewhere' } },
        { namespace: 'elsewhere' },
      );
    },
  });
  const fault = (body: unknown) => {
    const kc = new KubeConfig();
    kc.loadFromFile(h.sb.kubeconfigPath);
    return kubeRequest(kc, { method: 'POST', path: '/sandbox/faults', body, retry: 'none' });
  };
  const gone = async (t: typeof CRD, name: string, ns?: string) => {
    try {
      await h.kube.get(t, name, ns);
      return undefined;
    } catch (err) {
      return isKubeError(err, 404) ? true : undefined;
    }
  };

  test('the uninstall fails half-way; what is left is shown with why, the chosen parts are cleaned up and go', async () => {
    // More failures than the console's retries: the CSV's delete keeps failing.
    await fault({
      failDelete: {
        resource: 'clusterserviceversions',
        namespace: 'flags',
        times: 20,
        message: 'Internal error occurred: etcdserver: request timed out',
      },
    });
    const page = await h.open(`/operators/flags/${csv}`);
    await page.getByRole('button', { name: 'Uninstall' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Uninstall', exact: true }).click();
    await dialog.getByText('The uninstall stopped').waitFor({ timeout: 30_000 });
    assert.match(
      (await dialog.getByRole('list', { name: 'Uninstall steps' }).textContent()) ?? '',
      /Subscription flags\/flagpole: deleted.*ClusterServiceVersion flags\/flagpole\.v[\d.]+: failed/,
    );
    await fault({ failDelete: [] });
    await h.shot(page, 'uninstall-failed');

    // The list says it is half gone.
    const list = await h.open('/operators?namespace=flags');
    await list.getByText('Half gone: no Subscription names its CSV.').waitFor();
    await list.close();

    await dialog.getByRole('link', { name: 'See what is left' }).click();
    const parts = page.getByRole('list', { name: 'What is left' });
    await parts.waitFor();
    const text = (await parts.textContent()) ?? '';
    assert.match(text, /No Subscription names it any more: OLM keeps the operator running/);
    assert.match(text, /Instances of flags\.flagpole\.example\.com \(2 instances: 1 in elsewhere, 1 in flags\)/);
    assert.match(text, /flags\/dark-mode carries finalizer flagpole\.example\.com\/audit, which the operator removes/);
    await h.shot(page, 'what-is-left');

    await page.getByRole('checkbox', { name: /^ClusterServiceVersion flagpole/ }).check();
    await page
      .getByRole('checkbox', { name: /^Remove finalizers from instances of flags\.flagpole\.example\.com/ })
      .check();
    await page.getByRole('checkbox', { name: /^CRD flags\.flagpole\.example\.com/ }).check();
    await page.getByRole('button', { name: 'Preview the cleanup' }).click();
    const steps = page.getByRole('list', { name: 'Cleanup steps' });
    await steps.waitFor();
    assert.match(
      (await steps.textContent()) ?? '',
      /Delete Flag elsewhere\/stray.*Delete Flag flags\/dark-mode.*Delete ClusterServiceVersion flags\/flagpole.*Remove finalizer flagpole\.example\.com\/audit from Flag flags\/dark-mode.*Delete CustomResourceDefinition flags\.flagpole\.example\.com/s,
    );
    await h.shot(page, 'preview');

    await page.getByRole('button', { name: /^Clean up \(5 steps\)/ }).click();
    const result = page.getByRole('list', { name: 'Cleanup result' });
    await result.waitFor({ timeout: 20_000 });
    assert.match(
      (await result.textContent()) ?? '',
      /Delete Flag elsewhere\/stray: deleted.*Remove finalizers from Flag flags\/dark-mode: finalizers removed.*Delete CustomResourceDefinition flags\.flagpole\.example\.com: deleted/,
    );
    await waitFor('the CRD gone', () => gone(CRD, 'flags.flagpole.example.com'));
    await waitFor('the CSV gone', () => gone(CSV_TYPE, csv, 'flags'));
    // What is left is read again: only the OperatorGroup, which was not chosen.
    await waitFor('only the group left', async () =>
      ((await parts.textContent()) ?? '').match(/^OperatorGroup flags-og/) &&
      (await parts
        .getByRole('listitem')
        .filter({ has: page.getByRole('checkbox') })
        .count()) === 1
        ? true
        : undefined,
    );
    assert.equal(await gone(OPERATOR_GROUP_TYPE, 'flags-og', 'flags'), undefined, 'the group stays');
    await h.shot(page, 'cleaned');
    await page.close();
  });
});
