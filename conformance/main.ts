// `npm run conformance`: the same requests against the sandbox and the real cluster (scripts/
// cluster.ts: kube-apiserver, etcd and `opm serve`, built from their Go modules), on the same
// catalogs: every shared catalog and a generated one. Prints a table of divergences and, last,
// `N checks, D divergences (E explained)`; exits non-zero on any divergence the table of known
// differences in docs/conformance.md does not explain. `--fleet` runs the Open Cluster Management
// group instead, on two fleets (conformance/fleet.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CATALOG_DIR_ANNOTATION } from '../lib/sandbox/olm/catalog-sources';
import { startSandbox } from '../lib/sandbox/server/sandbox';
import { writeFixtureCatalog } from '../lib/sandbox/testing/fbc-fixture';
import { apiChecks } from './checks/api';
import { notFoundChecks } from './checks/not-found';
import { kubectlChecks } from './checks/kubectl';
import { olmChecks } from './checks/olm';
import { rbacChecks } from './checks/rbac';
import { registryChecks } from './checks/registry';
import { schemaChecks } from './checks/schemas';
import { failForwardChecks } from './checks/fail-forward';
import { scopedChecks } from './checks/scoped';
import { operatorObjectChecks } from './checks/operator-objects';
import { UNPACK_CATALOG, UNPACK_PACKAGE, unpackChecks } from './checks/olm-unpack';
import { MISSING_PACKAGE, unpackFailureChecks } from './checks/olm-unpack-failure';
import { olmV1Checks, V1_PACKAGES } from './checks/olm-v1';
import { servesOlmV1 } from './checks/olm-v1-read';
import { fleetConformance } from './fleet';
import { knownDifferences, readKnownDifferences, report, runChecks, type Check } from './run-checks';
import type { Target } from './target';

const root = join(import.meta.dirname, '..');
const shared = join(root, '..', 'shared', 'catalogs');

/**
 * A small catalog written here, with every edge kind and dependencies, as `olm.bundle.object`s;
 * and for the OLM v1 scenarios one package each (conformance/checks/olm-v1.ts), all with the same
 * graph, one of them deprecated (package, channel and first bundle).
 */
function generatedCatalog(dir: string): string {
  const out = join(dir, 'generated');
  writeFixtureCatalog(
    out,
    V1_PACKAGES.map((name) => ({
      name,
      bundles: [
        { version: '1.0.0' },
        { version: '1.1.0', replaces: '1.0.0' },
        { version: '1.2.0', replaces: '1.1.0' },
        { version: '2.0.0', replaces: '1.2.0', channels: ['stable', 'fast'] },
        { version: '2.1.0', replaces: '2.0.0', channels: ['fast'] },
      ],
    })),
  );
  appendFileSync(
    join(out, 'v1deprecated', 'catalog.json'),
    '\n' +
      JSON.stringify({
        schema: 'olm.deprecations',
        package: 'v1deprecated',
        entries: [
          { reference: { schema: 'olm.package' }, message: 'v1deprecated is no longer maintained.' },
          { reference: { schema: 'olm.channel', name: 'stable' }, message: 'Use the fast channel.' },
          { reference: { schema: 'olm.bundle', name: 'v1deprecated.v1.0.0' }, message: '1.0.0 has a known bug.' },
        ],
      }),
  );
  return writeFixtureCatalog(out, [
    {
      name: 'alpha',
      bundles: [
        { version: '1.0.0' },
        { version: '1.1.0', replaces: '1.0.0' },
        { version: '1.2.0', replaces: '1.1.0', skips: ['1.1.1'] },
        { version: '2.0.0', replaces: '1.2.0', skipRange: '>=1.0.0 <2.0.0', channels: ['stable', 'fast'] },
        { version: '2.1.0', replaces: '2.0.0', channels: ['fast'] },
      ],
    },
    // AllNamespaces only: copied everywhere.
    { name: 'gamma', bundles: [{ version: '1.0.0', installModes: { OwnNamespace: false, SingleNamespace: false } }] },
    // MultiNamespace only: unsupported in an OwnNamespace group.
    {
      name: 'delta',
      bundles: [
        {
          version: '1.0.0',
          installModes: { OwnNamespace: false, SingleNamespace: false, MultiNamespace: true, AllNamespaces: false },
        },
      ],
    },
    // A Deployment with env and tolerations of its own, for the Subscription config check.
    {
      name: 'epsilon',
      bundles: [
        {
          version: '1.0.0',
          env: [
            { name: 'LOG_LEVEL', value: 'info' },
            { name: 'WATCH_NAMESPACE', value: '' },
          ],
          tolerations: [{ key: 'bundle', operator: 'Exists' }],
        },
      ],
    },
    // A CSV OLM's CRD refuses (a webhook type outside its enum): its plan fails after the retry timeout.
    {
      name: 'zeta',
      bundles: [
        {
          version: '1.0.0',
          csvSpec: {
            webhookdefinitions: [
              {
                type: 'AuditWebhook',
                generateName: 'vzeta.example.com',
                admissionReviewVersions: ['v1'],
                sideEffects: 'None',
                deploymentName: 'zeta-operator',
                containerPort: 443,
              },
            ],
          },
        },
      ],
    },
    // Cluster-wide rules (a ClusterRole and binding), for the Operator object check alone.
    {
      name: 'wide',
      bundles: [
        { version: '1.0.0', clusterRules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }] },
        {
          version: '1.1.0',
          replaces: '1.0.0',
          clusterRules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }],
        },
      ],
    },
    {
      name: 'beta',
      channel: 'fast',
      bundles: [
        { version: '0.1.0', requiresPackage: { packageName: 'alpha', versionRange: '>=1.0.0' } },
        {
          version: '0.2.0',
          replaces: '0.1.0',
          requiresGvk: { group: 'alpha.example.com', version: 'v1', kind: 'Alpha' },
        },
      ],
    },
  ]);
}

/** One small catalog OLM v0 unpacks from images on both clusters (conformance/checks/olm-unpack.ts). */
function unpackCatalog(dir: string): string {
  const out = join(dir, UNPACK_CATALOG);
  writeFixtureCatalog(out, [
    { name: UNPACK_PACKAGE, bundles: [{ version: '1.0.0' }] },
    // Its image is deleted from the registry by conformance/checks/olm-unpack-failure.ts.
    { name: MISSING_PACKAGE, bundles: [{ version: '1.0.0' }] },
  ]);
  return out;
}

/**
 * The real cluster: every catalog's registry served as it is, and OLM's CatalogSources for
 * `olmCatalogs` (bundles inline) and `imageCatalogs` (bundles by image, unpacked by OLM).
 */
async function startReal(
  catalogs: string[],
  olmCatalogs: string[],
  imageCatalogs: string[],
  dataDir: string,
): Promise<{ target: Target; child: ChildProcess }> {
  const args = ['--import', 'tsx', join(root, 'scripts', 'cluster.ts'), '--data-dir', dataDir];
  for (const c of catalogs) args.push('--registry', c);
  for (const c of olmCatalogs) args.push('--catalog', c);
  for (const c of imageCatalogs) args.push('--image-catalog', c);
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      process.stdout.write(d.toString().replace(/^(?=.)/gm, '[real] '));
      if (/^cluster ready$/m.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`npm run cluster exited (${code}) before it was ready`)));
  });
  const registries: Record<string, string> = {};
  for (const m of out.matchAll(/^registry (\S+): (\S+)$/gm)) registries[m[1]!] = m[2]!;
  const kubeconfig = /^kubeconfig: (.+)$/m.exec(out)![1]!;
  const server = /server: (\S+)/.exec(readFileSync(kubeconfig, 'utf8'))![1]!;
  return {
    child,
    target: {
      name: 'real',
      url: server,
      ca: readFileSync(join(dataDir, 'ca.crt'), 'utf8'),
      tokens: JSON.parse(readFileSync(join(dataDir, 'tokens.json'), 'utf8')) as Record<string, string>,
      kubeconfig,
      registries,
    },
  };
}

/**
 * Runs checks on the real cluster only (the independent ones together), printing one line each;
 * with CONFORMANCE_DUMP, writes each answer beside the compared ones. Returns how many failed.
 */
async function runOnRealAlone(checks: Check[], real: Target): Promise<number> {
  let failures = 0;
  const one = async (c: Check) => {
    try {
      const answer = await c.run(real);
      console.log(`  ok ${c.id}`);
      const dump = process.env.CONFORMANCE_DUMP;
      if (dump) {
        mkdirSync(dump, { recursive: true });
        writeFileSync(
          join(dump, `${c.id.replace(/[^a-zA-Z0-9.-]+/g, '_')}.real-only.json`),
          JSON.stringify(answer, null, 1),
        );
      }
    } catch (err) {
      failures++;
      console.log(`  FAILED ${c.id}: ${(err as Error).message}`);
    }
  };
  await Promise.all([
    Promise.all(checks.filter((c) => c.independent).map(one)),
    (async () => {
      for (const c of checks.filter((c) => !c.independent)) await one(c);
    })(),
  ]);
  return failures;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { only: { type: 'string' }, catalog: { type: 'string', multiple: true }, fleet: { type: 'boolean' } },
  });
  // The Open Cluster Management group starts two fleets of its own instead (conformance/fleet.ts).
  if (values.fleet) process.exit(await fleetConformance(values.only));
  const work = mkdtempSync(join(tmpdir(), 'olm-conformance-'));
  const generated = generatedCatalog(work);
  const catalogs =
    values.catalog ??
    ['certified-operators-v4.18', 'gatekeeper-operator-product-v4.20', 'okderators']
      .map((c) => join(shared, c))
      .concat(generated);
  const unpack = unpackCatalog(work);
  const t0 = Date.now();
  const [sb, real] = await Promise.all([
    startSandbox({
      port: 0,
      kubeconfigPath: join(work, 'sandbox', 'kubeconfig'),
      catalogs,
      imageCatalogs: [unpack],
      deploymentDelayMs: 0,
    }),
    startReal(catalogs, [generated], [unpack], join(work, 'real')),
  ]);
  const registries: Record<string, string> = {};
  for (const c of catalogs) {
    const name = basename(c);
    const deadline = Date.now() + 120_000;
    for (;;) {
      // The sandbox names each CatalogSource after its folder, made a valid name; the annotation keeps the folder.
      const all = sb.api.storeList(
        sb.api.resources.all().find((r) => r.resource === 'catalogsources')!,
        'olm',
      ) as {
        metadata: { annotations?: Record<string, string> };
        status?: { connectionState?: { address?: string; lastObservedState?: string } };
      }[];
      const cs = all.find((o) => o.metadata.annotations?.[CATALOG_DIR_ANNOTATION] === resolve(c));
      if (cs?.status?.connectionState?.lastObservedState === 'READY' && cs.status.connectionState.address) {
        registries[name] = cs.status.connectionState.address;
        break;
      }
      if (Date.now() > deadline) throw new Error(`the sandbox's catalog ${name} did not become READY`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const sandbox: Target = {
    name: 'sandbox',
    url: sb.url,
    ca: sb.caPem,
    tokens: sb.tokens,
    kubeconfig: sb.kubeconfigPath,
    registries,
  };
  console.log(`both clusters ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const selected = (cs: Check[]) => cs.filter((c) => !values.only || c.id.includes(values.only));
  // OLM v1 is compared only where the sandbox has it; until then its checks run on the real
  // cluster alone, after the others (they create namespaces and CRDs the sandbox would not have).
  const sandboxV1 = await servesOlmV1(sandbox);
  const v1Checks = selected(olmV1Checks);
  const checks: Check[] = selected([
    ...apiChecks,
    ...notFoundChecks,
    ...rbacChecks,
    ...schemaChecks,
    ...kubectlChecks,
    ...registryChecks(
      catalogs.map((c) => basename(c)),
      () => sandbox,
    ),
    ...olmChecks,
    ...scopedChecks,
    ...failForwardChecks,
    ...operatorObjectChecks,
    ...unpackChecks,
    ...unpackFailureChecks,
    ...(sandboxV1 ? olmV1Checks : []),
  ]);
  // The table in docs/conformance.md, and OLM v1's in its own document.
  const v1Doc = join('docs', 'olm-v1', 'real-cluster.md');
  const known = new Map([
    ...readKnownDifferences(root),
    ...knownDifferences(readFileSync(join(root, v1Doc), 'utf8'), v1Doc),
  ]);
  const verdicts = await runChecks(checks, sandbox, real.target, known);
  const r = report(verdicts);
  let realOnlyFailures = 0;
  if (!sandboxV1 && v1Checks.length) {
    console.log(
      `not compared: ${v1Checks.length} OLM v1 checks, the sandbox does not serve olm.operatorframework.io/v1; run on the real cluster alone:`,
    );
    realOnlyFailures = await runOnRealAlone(v1Checks, real.target);
  }
  const exited = new Promise((r) => real.child.once('exit', r));
  real.child.kill('SIGTERM');
  await Promise.all([exited, sb.stop()]);
  // Its children (etcd, kube-apiserver, opm) may write a last log line while they stop.
  await new Promise((r) => setTimeout(r, 1000));
  // With CONFORMANCE_DUMP, the real cluster's logs are kept beside the answers.
  if (process.env.CONFORMANCE_DUMP)
    cpSync(join(work, 'real', 'logs'), join(process.env.CONFORMANCE_DUMP, 'real-logs'), { recursive: true });
  rmSync(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
  console.log(`${r.checks} checks, ${r.divergences} divergences (${r.explained} explained)`);
  if (realOnlyFailures) console.log(`${realOnlyFailures} checks failed on the real cluster alone`);
  process.exit(r.divergences > r.explained || realOnlyFailures ? 1 : 0);
}

main().catch((err: unknown) => {
  console.error(`conformance: ${(err as Error).stack ?? err}`);
  process.exit(2);
});
