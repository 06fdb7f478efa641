// A catalog as the rest of the console uses it: healthy packages, and every problem of the
// broken ones, which are set aside without hiding the others (opm would refuse the whole
// catalog; a console serves what it can and says what it could not).
import { buildModel, type CatalogModel, type ModelProblem, type PackageModel } from './model';
import { parseFbcText, sortBlobs, type FileProblem, type ParsedBlob } from './parse';
import type { DeclarativeConfig, BlobOrigin } from './types';
import { validatePackage } from './validate';

export interface Catalog {
  /** Packages with no problem, by name. */
  packages: Map<string, PackageModel>;
  /** Problems by package name ('' for problems that belong to no package). */
  problems: Map<string, ModelProblem[]>;
  /** Files that could not be parsed. */
  fileProblems: FileProblem[];
  model: CatalogModel;
}

export function buildCatalog(
  config: DeclarativeConfig,
  origins?: ReadonlyMap<object, BlobOrigin>,
  fileProblems: FileProblem[] = [],
): Catalog {
  const { model, problems: structural } = buildModel(config, origins);
  const problems = new Map<string, ModelProblem[]>();
  const record = (p: ModelProblem) => {
    const list = problems.get(p.package);
    if (list) list.push(p);
    else problems.set(p.package, [p]);
  };
  for (const p of structural) record(p);
  for (const pkg of model.packages.values()) for (const p of validatePackage(pkg)) record(p);
  const packages = new Map<string, PackageModel>();
  for (const [name, pkg] of model.packages) if (!problems.has(name)) packages.set(name, pkg);
  return { packages, problems, fileProblems, model };
}

/** A catalog from blobs already parsed (e.g. by readFbcDir). */
export function catalogFromBlobs(blobs: readonly ParsedBlob[], fileProblems: FileProblem[] = []): Catalog {
  const { config, origins } = sortBlobs(blobs);
  return buildCatalog(config, origins, fileProblems);
}

/** A catalog from in-memory files (name → text), for tests and uploads. */
export function catalogFromTexts(files: Record<string, string>): Catalog {
  const blobs: ParsedBlob[] = [];
  const fileProblems: FileProblem[] = [];
  for (const [file, text] of Object.entries(files)) {
    const parsed = parseFbcText(file, text);
    blobs.push(...parsed.blobs);
    fileProblems.push(...parsed.problems);
  }
  return catalogFromBlobs(blobs, fileProblems);
}

/** Every problem, one line each, naming where it is: for logs and the CLI. */
export function describeProblems(catalog: Catalog): string[] {
  const lines = catalog.fileProblems.map((p) => p.message);
  for (const list of catalog.problems.values()) {
    for (const p of list) {
      const where = [
        `package "${p.package}"`,
        p.channel !== undefined ? `channel "${p.channel}"` : '',
        p.bundle !== undefined ? `bundle "${p.bundle}"` : '',
        p.origin ? `(${p.origin.file}, blob ${p.origin.index})` : '',
      ]
        .filter(Boolean)
        .join(' ');
      lines.push(`${where}: ${p.message}`);
    }
  }
  return lines;
}
