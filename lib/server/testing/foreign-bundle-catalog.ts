// The catalog of issue 40's probe, for the tests of the move to OLM v1: a copy of the demo
// catalog's certwarden package whose certwarden.v1.1.0 also ships another team's CRD
// (pgpilot's postgresclusters.pgpilot.example.com, taken from the demo catalog) and a ClusterRole
// named like OLM's shared aggregate-olm-edit, with rules that would let every editor manage OLM.
// Given a higher priority than the demo catalog, OLM v1 resolves certwarden.v1.1.0 from it, so a
// move of certwarden installed by OLM v0 would render both objects.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';

const DEMO = join(import.meta.dirname, '..', '..', 'sandbox', 'demo-catalog', 'catalog');

export const FOREIGN_CRD = 'postgresclusters.pgpilot.example.com';
export const SHARED_ROLE = 'aggregate-olm-edit';

type Doc = { schema: string; name?: string; properties?: { type: string; value: { data?: string } }[] };

const demoDocs = (pkg: string) => yaml.loadAll(readFileSync(join(DEMO, pkg, 'catalog.yaml'), 'utf8')) as Doc[];
const decode = (p: { value: { data?: string } }) =>
  JSON.parse(Buffer.from(p.value.data ?? '', 'base64').toString()) as { kind: string; metadata: { name: string } };
const encode = (o: unknown) => ({
  type: 'olm.bundle.object',
  value: { data: Buffer.from(JSON.stringify(o)).toString('base64') },
});

/** Writes the catalog into a folder named `name` (a catalog is named after its folder) and returns it. */
export function writeForeignBundleCatalog(name: string): string {
  const pgpilotCrd = demoDocs('pgpilot')
    .filter((d) => d.schema === 'olm.bundle')
    .flatMap((d) => (d.properties ?? []).filter((p) => p.type === 'olm.bundle.object').map(decode))
    .find((o) => o.kind === 'CustomResourceDefinition' && o.metadata.name === FOREIGN_CRD)!;
  const sharedRole = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: SHARED_ROLE },
    rules: [{ apiGroups: ['operators.coreos.com'], resources: ['*'], verbs: ['*'] }],
  };
  const docs = demoDocs('certwarden').map((d) =>
    d.schema === 'olm.bundle' && d.name === 'certwarden.v1.1.0'
      ? { ...d, properties: [...(d.properties ?? []), encode(pgpilotCrd), encode(sharedRole)] }
      : d,
  );
  const dir = join(mkdtempSync(join(tmpdir(), 'foreign-bundle-')), name);
  mkdirSync(join(dir, 'certwarden'), { recursive: true });
  writeFileSync(join(dir, 'certwarden', 'catalog.json'), docs.map((d) => JSON.stringify(d)).join('\n'));
  return dir;
}
