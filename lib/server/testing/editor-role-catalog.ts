// A catalog for the tests of the move to OLM v1 whose bundle ships its own aggregated role, as
// many published operators do (an `<api>-editor-role` in the bundle's manifests, labelled to feed
// the cluster's `edit` role): a copy of the demo catalog's metricsmith package whose
// metricsmith.v0.4.0 also ships the ClusterRole collectors-editor-role, labelled
// rbac.authorization.k8s.io/aggregate-to-edit. OLM v0 installs it from this catalog, and, given a
// higher priority than the demo catalog, OLM v1 resolves metricsmith.v0.4.0 from it too.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';

const DEMO = join(import.meta.dirname, '..', '..', 'sandbox', 'demo-catalog', 'catalog');

export const EDITOR_PACKAGE = 'metricsmith';
export const EDITOR_CSV = 'metricsmith.v0.4.0';
export const EDITOR_ROLE = 'collectors-editor-role';
export const EDITOR_ROLE_RULES = [
  {
    apiGroups: ['metricsmith.example.com'],
    resources: ['collectors'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  },
];

type Doc = { schema: string; name?: string; properties?: { type: string; value: unknown }[] };

/** Writes the catalog into a folder named `name` (a catalog is named after its folder) and returns it. */
export function writeEditorRoleCatalog(name: string): string {
  const role = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: EDITOR_ROLE, labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } },
    rules: EDITOR_ROLE_RULES,
  };
  const object = { type: 'olm.bundle.object', value: { data: Buffer.from(JSON.stringify(role)).toString('base64') } };
  const docs = (yaml.loadAll(readFileSync(join(DEMO, EDITOR_PACKAGE, 'catalog.yaml'), 'utf8')) as Doc[]).map((d) =>
    d.schema === 'olm.bundle' && d.name === EDITOR_CSV ? { ...d, properties: [...(d.properties ?? []), object] } : d,
  );
  const dir = join(mkdtempSync(join(tmpdir(), 'editor-role-')), name);
  mkdirSync(join(dir, EDITOR_PACKAGE), { recursive: true });
  writeFileSync(join(dir, EDITOR_PACKAGE, 'catalog.json'), docs.map((d) => JSON.stringify(d)).join('\n'));
  return dir;
}
