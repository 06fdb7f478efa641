// "What this upgrade changes", in Debian's Chromium against a production build and the sandbox:
// pgpilot 1.2.0 installed under Manual approval in team1, its upgrade plan to 1.4.0 waiting. The
// plan's steps are rewritten into the form OLM v0.38.0 writes for a bundle it unpacked from its
// image (each manifest a reference to the unpack ConfigMap, filled gzip+base64), whose bundle adds
// a cluster-wide rule on Secrets and serves postgresclusters as v2 only, dropping the stored v1.
// The InstallPlan page says so before Approve, the stored version first, as a warning; alice
// (admin of team1 only) may not read that ConfigMap nor the catalog, and is told why the change is
// not known. Then an OLM v1 extension's upgrade preview (certwarden 1.0.0 to 1.1.0: pgpilot's CRDs
// are OLM v0's here, which v1 does not take over) says what it changes. Screenshots at 1440
// and 390 px, each checked with axe.
import { gzipSync } from 'node:zlib';
import { describe, test } from 'node:test';
import type { KubeClient } from '../lib/k8s/client';
import { CONFIG_MAP_TYPE, NAMESPACE_TYPE, rbacType, SERVICE_ACCOUNT_TYPE } from '../lib/k8s/core-kinds';
import { INSTALL_PLAN_TYPE, type InstallPlan, type Step } from '../lib/olm/resources/install-plan';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '../lib/server/olm-v1/resources';
import { waitFor } from '../lib/server/testing/cluster';
import { upgradeWaitingForApproval } from '../lib/server/testing/upgrade-waiting';
import { PHONE } from './support/a11y';
import { useHarness } from './support/harness';

const NS = 'team1';
const FROM = 'pgpilot.v1.2.0';
const TO = 'pgpilot.v1.4.0';
const CM = 'feed00feed00feed00feed00feed00feed00feed00feed00feed00feed00fee';
type CsvLike = { spec: { install: { spec: { clusterPermissions: unknown[] } } } };
type CrdLike = { metadata: { name: string }; spec: { versions: { name: string }[] } };

/** The upgrade plan in the form OLM writes for an unpacked bundle, with the unpack ConfigMap. */
async function asUnpacked(kube: KubeClient, plan: InstallPlan): Promise<void> {
  const steps = plan.status!.plan!;
  const own = (kind: string) =>
    steps.filter((s) => s.resolving === TO && s.resource.kind === kind).map((s) => JSON.parse(s.resource.manifest!));
  const csv = own('ClusterServiceVersion')[0] as CsvLike;
  csv.spec.install.spec.clusterPermissions.push({
    serviceAccountName: 'pgpilot-controller',
    rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] }],
  });
  const files: Record<string, unknown> = { 'pgpilot.clusterserviceversion.yaml': csv };
  for (const crd of own('CustomResourceDefinition') as CrdLike[]) {
    if (crd.metadata.name === 'postgresclusters.pgpilot.example.com')
      crd.spec.versions = crd.spec.versions.map((v) => ({ ...v, name: 'v2' }));
    files[`${crd.metadata.name}.crd.yaml`] = crd;
  }
  const binaryData = Object.fromEntries(
    Object.entries(files).map(([k, v]) => [
      k,
      Buffer.from(gzipSync(JSON.stringify(v)).toString('base64')).toString('base64'),
    ]),
  );
  await kube.create(
    CONFIG_MAP_TYPE,
    { metadata: { name: CM, namespace: 'olm', annotations: { 'olm.contentEncoding': 'gzip+base64' } }, binaryData },
    { namespace: 'olm' },
  );
  const ref = JSON.stringify({
    kind: 'ConfigMap',
    name: CM,
    namespace: 'olm',
    catalogSourceName: 'olm-console-demo',
    catalogSourceNamespace: 'olm',
    replaces: FROM,
    properties: '',
  });
  const rewritten: Step[] = steps.map((s) =>
    s.resolving === TO ? { ...s, resource: { ...s.resource, manifest: ref } } : s,
  );
  await kube.patch(
    INSTALL_PLAN_TYPE,
    plan.metadata!.name!,
    { status: { plan: rewritten } },
    { namespace: NS, type: 'merge', subresource: 'status' },
  );
}

describe('what an upgrade changes, before it is approved', () => {
  let planName = '';
  const h = useHarness({
    suite: 'upgrade-changes',
    seed: async (kube) => {
      const plan = await upgradeWaitingForApproval(kube, {
        namespace: NS,
        package: 'pgpilot',
        channel: 'stable',
        from: FROM,
        to: TO,
      });
      planName = plan.metadata!.name!;
      await asUnpacked(kube, plan);
    },
  });

  test('the InstallPlan page says what the upgrade changes, a dropped stored version first', async () => {
    const page = await h.open(`/installplans/${NS}/${planName}`);
    const section = page.getByRole('region', { name: 'What this upgrade changes' });
    await section.getByText('Warning: this upgrade drops a CRD version that may still hold stored objects.').waitFor({
      timeout: 20_000,
    });
    await section
      .getByText(/postgresclusters\.pgpilot\.example\.com version v1 is listed in the installed CRD/)
      .waitFor();
    await section.getByText(/New: pgpilot\.v1\.4\.0, from the ConfigMap OLM unpacked the bundle image into/).waitFor();
    await section.getByRole('heading', { name: 'Rules added' }).waitFor();
    await section.getByText(/ServiceAccount pgpilot-controller may .*secrets/).waitFor();
    await section.getByText(/706770696c6f742d312e342e30.*: new/).waitFor();
    await h.shot(page, 'installplan');
    await page.setViewportSize(PHONE);
    await h.shot(page, 'installplan-phone');
    await page.close();
  });

  test('alice, who may not read the unpack ConfigMap nor the catalog, is told why it is not known', async () => {
    const page = await h.openAs('alice', `/installplans/${NS}/${planName}`);
    const section = page.getByRole('region', { name: 'What this upgrade changes' });
    await section.getByText(/What this upgrade changes is not known: the new bundle cannot be read: /).waitFor({
      timeout: 20_000,
    });
    await section
      .getByText(/you may not read ConfigMap olm\//)
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    await h.shot(page, 'installplan-alice');
    await page.close();
  });

  test('an OLM v1 upgrade preview says what the new version changes', async () => {
    await h.kube.create(NAMESPACE_TYPE, { metadata: { name: 'certwarden-v1' } });
    await h.kube.create(SERVICE_ACCOUNT_TYPE, { metadata: { name: 'installer', namespace: 'certwarden-v1' } });
    await h.kube.create(rbacType('ClusterRoleBinding'), {
      metadata: { name: 'certwarden-v1-installer' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: 'certwarden-v1' }],
    });
    await h.kube.create(CLUSTER_EXTENSION_TYPE, {
      metadata: { name: 'certwarden' },
      spec: {
        namespace: 'certwarden-v1',
        serviceAccount: { name: 'installer' },
        source: {
          sourceType: 'Catalog',
          catalog: { packageName: 'certwarden', version: '1.0.0', channels: ['stable'] },
        },
      },
    });
    await waitFor(
      'installed at 1.0.0',
      async () => {
        const ce = await h.kube.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, 'certwarden');
        return ce.status?.install?.bundle?.version === '1.0.0' ? ce : undefined;
      },
      30_000,
    );
    const page = await h.open('/clusterextensions/certwarden');
    await page.getByRole('button', { name: 'Upgrade to 1.1.0' }).click({ timeout: 30_000 });
    const preview = page.getByRole('region', { name: 'Version change preview' });
    const section = preview.getByRole('region', { name: 'What this upgrade changes' });
    await section.getByText(/Installed: certwarden\.v1\.0\.0, as the catalog gives it/).waitFor({ timeout: 20_000 });
    await section.getByText(/New: certwarden\.v1\.1\.0, as the catalog gives it/).waitFor();
    await h.shot(page, 'v1-preview');
    await page.setViewportSize(PHONE);
    await h.shot(page, 'v1-preview-phone');
    await page.close();
  });
});
