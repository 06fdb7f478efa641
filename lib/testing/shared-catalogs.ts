// Where the real published catalogs used as test data live, and whether they are there.
// They are not part of the repository: by default they are `../shared/catalogs`, beside the
// checkout; OLM_CONSOLE_SHARED_CATALOGS names another folder (read here and nowhere else).
// Tests that need them skip with `needsSharedCatalogs` when the folder is absent.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const fromEnv = process.env.OLM_CONSOLE_SHARED_CATALOGS;

/** The folder holding the shared catalogs (one folder per catalog). */
export const sharedCatalogs = fromEnv
  ? resolve(fromEnv)
  : join(import.meta.dirname, '..', '..', '..', 'shared', 'catalogs');

/** Whether that folder exists. */
export const sharedCatalogsAvailable = existsSync(sharedCatalogs);

/** The one line a test or suite skips with when the catalogs are absent. */
export const sharedCatalogsMissing = fromEnv
  ? `skipped: ${fromEnv} (OLM_CONSOLE_SHARED_CATALOGS, real published catalogs) does not exist`
  : 'skipped: ../shared/catalogs (real published catalogs) is not beside this checkout';

/** Options for `test` or `describe`: skip, with that line, when the catalogs are absent. */
export const needsSharedCatalogs: { skip: string | false } = {
  skip: sharedCatalogsAvailable ? false : sharedCatalogsMissing,
};

/** A path inside the shared catalogs folder. */
export const sharedCatalog = (...parts: string[]): string => join(sharedCatalogs, ...parts);

/**
 * What `load` gives when the catalogs are there; otherwise nothing, typed as the value so a test
 * module can compute from it at load time (its tests skip with `needsSharedCatalogs`).
 */
export function whenSharedCatalogs<T>(load: () => T): T {
  return sharedCatalogsAvailable ? load() : (undefined as T);
}
