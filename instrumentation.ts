// Runs once when the console's server starts (Next.js instrumentation hook).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { clusterAccess, revocations } = await import('./lib/server/context');
  // Logouts made on other replicas are known before the first request.
  revocations();
  const { approverSetting, approverClient, startUpgradeApprover } = await import('./lib/server/upgrade-target');
  const approver = approverSetting();
  if (approver) {
    const { logger } = await import('./lib/observability/logger');
    startUpgradeApprover(await approverClient(approver), logger());
  }
  // Catalog snapshots load while the server starts, not during the first OperatorHub visit: the
  // disk's, and those the replicas share where the deployment asks for them.
  if (process.env.OLM_CONSOLE_CATALOG_SNAPSHOT_DIR || process.env.OLM_CONSOLE_SHARED_CATALOG_SNAPSHOTS) {
    const { sharedCatalogIndex } = await import('./lib/catalog/catalog-index');
    const { shareCatalogSnapshots } = await import('./lib/server/catalog-snapshot-sharing');
    shareCatalogSnapshots(sharedCatalogIndex());
    void sharedCatalogIndex().ready();
    const { restoreCatalogContent } = await import('./lib/server/olm-v1/content-cache');
    // Counted with the catalog snapshots, so a new replica's warm-up waits for its ClusterCatalog
    // content too before /readyz says ready (lib/server/http/warm-up.ts).
    const { trackLoad } = await import('./lib/catalog/snapshot-loads');
    trackLoad(restoreCatalogContent());
  }
  if (process.env.OLM_CONSOLE_WARM_UP !== 'false') {
    // Connections the first person's requests use, opened without credentials, and the list's code
    // run on made-up packages (lib/server/warm-first-page.ts); the warm-up waits for it before
    // /readyz says ready, as for the snapshots.
    const [{ warmFirstPage }, { trackLoad }] = await Promise.all([
      import('./lib/server/warm-first-page'),
      import('./lib/catalog/snapshot-loads'),
    ]);
    let access;
    try {
      access = clusterAccess();
    } catch {
      // Settings the console cannot use are said by the first request that needs them.
    }
    trackLoad(warmFirstPage(access));
  }
  if (process.env.OLM_CONSOLE_WARM_INDEX === 'false') return;
  const access = clusterAccess();
  if (access.mode !== 'kubeconfig' || !access.shared) return;
  const [{ KubeClient }, { warmCatalogIndex }, { logger }] = await Promise.all([
    import('./lib/k8s/client'),
    import('./lib/server/warm-index'),
    import('./lib/observability/logger'),
  ]);
  // Not awaited: the server answers at once, and a request for a catalog still being read joins that read.
  void warmCatalogIndex(new KubeClient(access.shared), { log: (line) => logger().info(line) });
}
