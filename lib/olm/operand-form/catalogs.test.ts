// The form engine over every owned CRD of the real catalogs in ../shared/catalogs: the CRDs are the
// bundles' own `olm.bundle.object` properties (bundles given only by image carry none), each served
// version built with the descriptors its CSV gives that version, and pre-filled from its example.
// Every one must build; what only YAML can edit is counted and printed.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadCatalog } from '../fbc/load-catalog';
import { needsSharedCatalogs, sharedCatalogs } from '../../testing/shared-catalogs';
import { bundleObjects } from '../fbc/model';
import { buildFormModel, walkFields } from './schema';
import { validateObject } from './validate';
import { initialObject } from './values';

const root = sharedCatalogs;
const CATALOGS = ['certified-operators-v4.18', 'okderators', 'gatekeeper-operator-product-v4.20'];

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- third-party JSON, read defensively below

describe('operand forms over the shared catalogs', needsSharedCatalogs, () => {
  test('every owned CRD in a bundle builds a form; what it cannot show as fields is counted', () => {
    const f = {
      bundles: 0,
      bundlesWithCrds: 0,
      crdObjects: 0,
      crdNames: new Set<string>(),
      forms: 0,
      fields: 0,
      raw: 0,
      rawByReason: new Map<string, number>(),
      formsWithRaw: 0,
      freeFormSpecs: 0,
      descriptors: 0,
      unmatched: 0,
      examples: 0,
      examplesWithIssues: 0,
    };
    for (const name of CATALOGS) {
      for (const pkg of loadCatalog(join(root, name)).packages.values()) {
        for (const bundle of pkg.bundles.values()) {
          f.bundles++;
          const objects = bundleObjects(bundle);
          const csv = objects.find((o) => o.kind === 'ClusterServiceVersion') as Obj | undefined;
          const crds = objects.filter((o) => o.kind === 'CustomResourceDefinition') as Obj[];
          if (!crds.length) continue;
          f.bundlesWithCrds++;
          const owned: Obj[] = csv?.spec?.customresourcedefinitions?.owned ?? [];
          let examples: Obj[] = [];
          try {
            examples = JSON.parse(csv?.metadata?.annotations?.['alm-examples'] ?? '[]') as Obj[];
          } catch {
            examples = [];
          }
          for (const crd of crds) {
            f.crdObjects++;
            f.crdNames.add(crd.metadata?.name);
            for (const v of (crd.spec?.versions ?? []) as Obj[]) {
              if (!v.served) continue;
              const descriptors = owned.find(
                (o) => o.name === crd.metadata?.name && o.version === v.name,
              )?.specDescriptors;
              const model = buildFormModel(v.schema?.openAPIV3Schema, descriptors);
              f.forms++;
              f.descriptors += descriptors?.length ?? 0;
              f.unmatched += model.unmatchedDescriptors.length;
              if (model.freeForm) f.freeFormSpecs++;
              const all = [...walkFields(model.spec.fields)];
              f.fields += all.length;
              const raw = all.filter((w) => w.field.type === 'raw');
              f.raw += raw.length;
              if (raw.length || model.freeForm) f.formsWithRaw++;
              for (const r of raw)
                if (r.field.type === 'raw')
                  f.rawByReason.set(r.field.reason, (f.rawByReason.get(r.field.reason) ?? 0) + 1);
              const group = crd.spec?.group as string;
              const example = examples.find(
                (e) => e?.kind === crd.spec?.names?.kind && e?.apiVersion === `${group}/${v.name}`,
              );
              if (example) {
                f.examples++;
                const obj = initialObject({ group, version: v.name, kind: crd.spec.names.kind }, 'default', example);
                if (validateObject(model, obj).length) f.examplesWithIssues++;
              }
            }
          }
        }
      }
    }
    const reasons = [...f.rawByReason].map(([r, n]) => `${r} ${n}`).join(', ');
    console.log(
      `operand forms: ${f.bundles} bundles, ${f.bundlesWithCrds} with CRD objects (the others are given by image only); ${f.crdObjects} CRD objects (${f.crdNames.size} distinct CRDs), ${f.forms} forms (one per served version)`,
    );
    console.log(
      `operand forms: ${f.fields} fields, ${f.raw} left to YAML (${reasons}) in ${f.formsWithRaw} forms; ${f.freeFormSpecs} specs free-form; ${f.descriptors} spec descriptors, ${f.unmatched} naming no schema field`,
    );
    console.log(
      `operand forms: ${f.examples} alm-examples pre-filled, ${f.examplesWithIssues} of them with an issue the form reports`,
    );
    // Counted from the catalogs' files (see shared/catalogs/README.md: 3 eda-k8s-operator bundles
    // and 11 okderators bundles carry full manifests; gatekeeper's bundles none).
    assert.equal(f.bundles, 739 + 25 + 18);
    assert.ok(f.crdObjects > 0 && f.forms >= f.crdObjects);
    assert.ok(f.raw < f.fields);
  });
});
