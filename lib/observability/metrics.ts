// The console's Prometheus metrics, with prom-client's default registry. The HTTP server and the
// Next.js routes run in one process but load this module twice (once through tsx, once bundled),
// so every metric is fetched from the registry before it is made: both copies share one series.
// prom-client itself is loaded from node_modules by both (next.config.js serverExternalPackages).
import client from 'prom-client';

function counter(name: string, help: string, labelNames: string[]): client.Counter<string> {
  return (
    (client.register.getSingleMetric(name) as client.Counter<string> | undefined) ??
    new client.Counter({ name, help, labelNames })
  );
}
function histogram(name: string, help: string, labelNames: string[], buckets: number[]): client.Histogram<string> {
  return (
    (client.register.getSingleMetric(name) as client.Histogram<string> | undefined) ??
    new client.Histogram({ name, help, labelNames, buckets })
  );
}
function gauge(name: string, help: string, labelNames: string[] = []): client.Gauge<string> {
  return (
    (client.register.getSingleMetric(name) as client.Gauge<string> | undefined) ??
    new client.Gauge({ name, help, labelNames })
  );
}

const g = globalThis as { olmConsoleDefaultMetrics?: boolean };
if (!g.olmConsoleDefaultMetrics) {
  g.olmConsoleDefaultMetrics = true;
  client.collectDefaultMetrics({ prefix: 'olm_console_' });
}

export const httpRequests = counter(
  'olm_console_http_requests_total',
  'Requests answered, by route pattern, method and status code.',
  ['route', 'method', 'status'],
);
export const httpDuration = histogram(
  'olm_console_http_request_duration_seconds',
  'Time to answer a request (to the last byte; event streams excluded).',
  ['route', 'method', 'status'],
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
);
export const eventStreams = gauge('olm_console_event_streams_open', 'Server-Sent Event streams open (/api/events).');
export const clusterRequests = counter(
  'olm_console_cluster_requests_total',
  'Requests to the Kubernetes API server, by verb and status code.',
  ['verb', 'code'],
);
export const clusterErrors = counter(
  'olm_console_cluster_request_errors_total',
  'Kubernetes API requests that failed (non-2xx or no answer), by verb and code (`network` when nothing answered).',
  ['verb', 'code'],
);
export const clusterRetries = counter(
  'olm_console_cluster_request_retries_total',
  'Kubernetes API requests sent again after a transient failure (lib/k8s/retry.ts), by verb and the code that failed (`network` when nothing answered).',
  ['verb', 'code'],
);
// The catalog index is shared by everyone, and /metrics answers anyone who reaches the pod: its
// series carry no catalog names (which say what namespaces and registries exist). Which catalog
// has a problem is on the Catalogs page, for the people who may see that CatalogSource.
export const catalogReads = counter(
  'olm_console_catalog_index_reads_total',
  'Reads of a catalog registry into the shared index, by outcome (ok, failed).',
  ['outcome'],
);
export const catalogReadDuration = histogram(
  'olm_console_catalog_index_read_duration_seconds',
  'How long a catalog registry read took.',
  [],
  [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
);

/** What the shared catalog index holds, counted: never which catalogs. */
export interface CatalogIndexTotals {
  /** Catalogs whose last read succeeded. */
  read: number;
  /** Catalogs served from an earlier read: the last one failed. */
  stale: number;
  /** Catalogs the index could not read and has nothing earlier of. */
  unreadable: number;
  /** Packages served, every catalog together (a stale catalog's too). */
  packages: number;
  /** Bytes of registry messages in the reads served, every catalog together. */
  bytes: number;
}

const NO_TOTALS: CatalogIndexTotals = { read: 0, stale: 0, unreadable: 0, packages: 0, bytes: 0 };
// On globalThis for the reason the metrics are taken from the registry: the index that reports
// and the copy of this module whose gauges are scraped may be loaded twice.
const totalsSource = globalThis as { olmConsoleCatalogIndexTotals?: () => CatalogIndexTotals };

/** The shared index says how to count it; the gauges below ask at each scrape. */
export function reportCatalogIndexTotals(totals: () => CatalogIndexTotals): void {
  totalsSource.olmConsoleCatalogIndexTotals = totals;
}

function indexTotals(): CatalogIndexTotals {
  return totalsSource.olmConsoleCatalogIndexTotals?.() ?? NO_TOTALS;
}

/** A gauge worked out when it is scraped, so it cannot drift from what it counts. */
function countedGauge(
  name: string,
  help: string,
  labelNames: string[],
  count: (g: client.Gauge<string>) => void,
): client.Gauge<string> {
  const known = client.register.getSingleMetric(name) as client.Gauge<string> | undefined;
  return (
    known ??
    new client.Gauge({
      name,
      help,
      labelNames,
      collect() {
        count(this);
      },
    })
  );
}

export const catalogCount = countedGauge(
  'olm_console_catalog_index_catalogs',
  'Catalogs in the shared index by state: read; stale (served from an earlier read, the last one failed); ' +
    'unreadable (nothing to serve). Which ones: the Catalogs page, for those who may see them.',
  ['state'],
  (g) => {
    const t = indexTotals();
    g.set({ state: 'read' }, t.read);
    g.set({ state: 'stale' }, t.stale);
    g.set({ state: 'unreadable' }, t.unreadable);
  },
);
export const catalogPackages = countedGauge(
  'olm_console_catalog_index_packages',
  'Packages the shared index serves, every catalog together.',
  [],
  (g) => g.set(indexTotals().packages),
);
export const catalogBytes = countedGauge(
  'olm_console_catalog_index_read_bytes',
  'Bytes of registry messages in the reads the shared index serves, every catalog together.',
  [],
  (g) => g.set(indexTotals().bytes),
);

/** The Kubernetes verb of a request, as the API server's audit log names it. */
export function kubeVerb(method: string, path: string, query?: Record<string, unknown>): string {
  if (method !== 'GET')
    return (
      ({ POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' } as Record<string, string>)[method] ??
      method.toLowerCase()
    );
  if (query?.watch) return 'watch';
  const segs = path.split('?')[0]!.split('/').filter(Boolean);
  let rest = segs[0] === 'api' ? segs.slice(2) : segs[0] === 'apis' ? segs.slice(3) : [];
  if (rest[0] === 'namespaces' && rest.length > 2) rest = rest.slice(2);
  return rest.length === 1 ? 'list' : 'get';
}

export function metricsText(): Promise<string> {
  return client.register.metrics();
}
export const METRICS_CONTENT_TYPE = client.register.contentType;
