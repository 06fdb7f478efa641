// `olm.csv.metadata` as opm writes it for a bundle it renders from an image (operator-registry
// alpha/property MustBuildCSVMetadata): the CSV's annotations and labels and the spec fields a
// catalog shows, and none of the install strategy, permissions or CRD schemas, which stay in the
// image. Field names and the fields Go's encoder keeps though empty are the CSVMetadata type's:
// `maturity` always, the `apiServiceDefinitions`, `crdDescriptions` and `provider` structs always.
type Obj = Record<string, unknown>;

const present = (v: unknown) =>
  v !== undefined &&
  v !== null &&
  v !== '' &&
  !(Array.isArray(v) && !v.length) &&
  !(typeof v === 'object' && !Array.isArray(v) && !Object.keys(v as Obj).length);

export function csvMetadataOf(csv: Obj): Obj {
  const metadata = (csv.metadata ?? {}) as Obj;
  const spec = (csv.spec ?? {}) as Obj;
  const opt = (key: string, v: unknown) => (present(v) ? { [key]: v } : {});
  return {
    ...opt('annotations', metadata.annotations),
    apiServiceDefinitions: spec.apiservicedefinitions ?? {},
    crdDescriptions: spec.customresourcedefinitions ?? {},
    ...opt('description', spec.description),
    ...opt('displayName', spec.displayName),
    ...opt('installModes', spec.installModes),
    ...opt('keywords', spec.keywords),
    ...opt('labels', metadata.labels),
    ...opt('links', spec.links),
    ...opt('maintainers', spec.maintainers),
    maturity: typeof spec.maturity === 'string' ? spec.maturity : '',
    ...opt('minKubeVersion', spec.minKubeVersion),
    ...opt('nativeAPIs', spec.nativeAPIs),
    provider: spec.provider ?? {},
  };
}
