// `npm run sandbox`: the sandbox cluster alone, on 127.0.0.1.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SEED_USERS } from './auth/bootstrap-rbac';
import { startSandboxFleet } from './fleet';
import { startSandbox, type Flavor } from './server/sandbox';
import { PULL_SECRET_NAME } from './image-registry/pull-secret';
import { PROTECTED_REPOSITORY } from './image-registry/sandbox-registry';

const usage = `usage: npm run sandbox -- [--port N] [--data FILE] [--flavor upstream|openshift] [--kubeconfig PATH] [--catalog DIR ...]
       [--catalog-address loopback|service] [--catalog-image IMAGE=DIR ...] [--clusters N]
       [--bundle-images on|off]

  --port N          port on 127.0.0.1 (default 6443; 0 picks a free one)
  --data FILE       keep every object in FILE; a restart (even after kill -9) comes back with them
  --flavor F        upstream (namespaces olm, operators) or openshift (openshift-marketplace,
                    openshift-operators, ClusterVersion, Proxy, and OperatorHub cluster whose
                    switches turn the --catalog catalogs, its default sources, off and on);
                    default upstream
  --kubeconfig PATH where to write the admin kubeconfig (default .sandbox/kubeconfig); the seed
                    users' kubeconfigs and tokens.json are written beside it
  --deployment-delay MS
                    how long operator Deployments take to report available (default 1500;
                    there is no kubelet)
  --catalog DIR     an FBC catalog folder (repeatable): a CatalogSource named after the folder, in
                    the catalog namespace, served over the registry gRPC API; its packages appear
                    as PackageManifests; for OLM v1 also a ClusterCatalog of the same name (image
                    sandbox.olm-console.dev/catalogs/<name>:latest). Without --catalog the sandbox
                    serves the project's demo catalog (CatalogSource olm-console-demo)
  --catalog-address A
                    loopback (default): a catalog's status names its registry's 127.0.0.1 port;
                    service: OLM's in-cluster address (<name>.<namespace>.svc:50051), with the
                    catalog pod and Service OLM runs, reachable only by pods/portforward (as
                    kubectl port-forward or the console do against a real cluster)
  --catalog-image IMAGE=DIR
                    an image the sandbox can "pull" (repeatable): a CatalogSource whose spec.image
                    is IMAGE serves the FBC folder DIR, and with updateStrategy.registryPoll the
                    folder is read again each interval (status.latestImageRegistryPoll), as OLM
                    polls the image for a new digest; a ClusterCatalog naming IMAGE serves it too
  --clusters N      N clusters (2 or more) in this process, for the console's fleet pages: each on
                    a port of its own (--port is the first's), seeded with different operator
                    versions and waiting approvals, all accepting the same seed users' tokens; the
                    --kubeconfig file names them all, a context each (each cluster's own files in
                    a folder of its name beside it); with --data, cluster K keeps <data>.<name>

  --bundle-images on|off
                    on: catalogs give bundles as published catalogs do, by image in the
                    sandbox's own registry: the demo catalog's objects leave it for images (it
                    gives olm.csv.metadata and the image), and a --catalog folder's image-only
                    bundles get images of what the real cluster derives for them. off: the demo
                    bundles carry their objects (olm.bundle.object) and --catalog folders are
                    served as they are. Default on`;

function main(): void {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '6443' },
        data: { type: 'string' },
        flavor: { type: 'string', default: 'upstream' },
        kubeconfig: { type: 'string' },
        catalog: { type: 'string', multiple: true, default: [] },
        'deployment-delay': { type: 'string', default: '1500' },
        'catalog-address': { type: 'string', default: 'loopback' },
        'catalog-image': { type: 'string', multiple: true, default: [] },
        clusters: { type: 'string' },
        'bundle-images': { type: 'string', default: 'on' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(usage);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a number between 0 and 65535, got "${values.port}"`);
    process.exit(2);
  }
  if (values.flavor !== 'upstream' && values.flavor !== 'openshift') {
    console.error(`--flavor must be upstream or openshift, got "${values.flavor}"`);
    process.exit(2);
  }
  const deploymentDelayMs = Number(values['deployment-delay']);
  if (!Number.isInteger(deploymentDelayMs) || deploymentDelayMs < 0) {
    console.error(`--deployment-delay must be a whole number of milliseconds, got "${values['deployment-delay']}"`);
    process.exit(2);
  }
  const catalogAddress = values['catalog-address'];
  if (catalogAddress !== 'loopback' && catalogAddress !== 'service') {
    console.error(`--catalog-address must be loopback or service, got "${catalogAddress}"`);
    process.exit(2);
  }
  const bundleImages = values['bundle-images'];
  if (bundleImages !== 'on' && bundleImages !== 'off') {
    console.error(`--bundle-images must be on or off, got "${bundleImages}"`);
    process.exit(2);
  }
  const catalogImages: Record<string, string> = {};
  for (const pair of values['catalog-image']) {
    const at = pair.indexOf('=');
    if (at <= 0 || at === pair.length - 1) {
      console.error(
        `--catalog-image takes IMAGE=DIR (for example quay.io/acme/catalog:latest=./catalogs/acme), got "${pair}"`,
      );
      process.exit(2);
    }
    const dir = resolve(pair.slice(at + 1));
    if (!existsSync(dir)) {
      console.error(`--catalog-image ${pair}: no folder ${dir}`);
      process.exit(2);
    }
    catalogImages[pair.slice(0, at)] = dir;
  }
  if (values.clusters !== undefined) {
    const count = Number(values.clusters);
    if (!Number.isInteger(count) || count < 2 || count > 100) {
      console.error(`--clusters must be a whole number from 2 to 100, got "${values.clusters}"`);
      process.exit(2);
    }
    startSandboxFleet({
      count,
      port,
      dataFile: values.data,
      flavor: values.flavor as Flavor,
      kubeconfigPath: values.kubeconfig ?? '.sandbox/kubeconfig',
      catalogs: values.catalog,
      deploymentDelayMs,
      catalogAddress,
      catalogImages,
      // Every cluster's catalogs give bundles as the one sandbox's would (default on).
      bundleImages: bundleImages === 'on',
    })
      .then((fleet) => {
        // The first line is the one `npm start`'s supervisor waits for: the home cluster.
        for (const c of fleet.clusters) console.log(`sandbox cluster ${c.name} listening on ${c.sandbox.url}`);
        console.log(`kubeconfig: ${fleet.kubeconfigPath}   (a context per cluster: kubectl --context NAME)`);
        for (const u of SEED_USERS)
          console.log(`  user ${u.name.padEnd(6)} ${fleet.kubeconfigs[u.name]}  (${u.description}, on every cluster)`);
        const stop = () => void fleet.stop().then(() => process.exit(0));
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      })
      .catch((err: unknown) => {
        const e = err as NodeJS.ErrnoException;
        console.error(
          e.code === 'EADDRINUSE'
            ? `port ${port} is in use; pick another with --port`
            : `sandbox failed to start: ${e.message}`,
        );
        process.exit(1);
      });
    return;
  }
  startSandbox({
    port,
    dataFile: values.data,
    flavor: values.flavor as Flavor,
    kubeconfigPath: values.kubeconfig,
    catalogs: values.catalog,
    deploymentDelayMs,
    catalogAddress,
    catalogImages,
    bundleImages: bundleImages === 'on',
  })
    .then((sb) => {
      console.log(`sandbox cluster (${sb.flavor}) listening on ${sb.url}`);
      console.log(`kubeconfig: ${sb.kubeconfigPath}   (kubectl --kubeconfig ${sb.kubeconfigPath} get namespaces)`);
      for (const u of SEED_USERS)
        console.log(`  user ${u.name.padEnd(6)} ${sb.kubeconfigs[u.name]}  (${u.description})`);
      console.log(`OLM v1 catalog content (catalogd): ${sb.olmV1.contentUrl}/catalogs/<name>/api/v1/all`);
      console.log(
        `image registry: ${sb.imageRegistry.registry.origin} (bundle images; pull secret ` +
          `${sb.olm.catalogs.globalNamespace}/${PULL_SECRET_NAME} for ${PROTECTED_REPOSITORY})`,
      );
      if (values.data) console.log(`data: ${values.data}`);
      const stop = () => void sb.stop().then(() => process.exit(0));
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    })
    .catch((err: unknown) => {
      const e = err as NodeJS.ErrnoException;
      console.error(
        e.code === 'EADDRINUSE'
          ? `port ${port} is in use; pick another with --port`
          : `sandbox failed to start: ${e.message}`,
      );
      process.exit(1);
    });
}

main();
