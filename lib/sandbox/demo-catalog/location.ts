// Where the demo catalog's FBC files are (made by build.ts beside this file).
import { join } from 'node:path';

export const DEMO_CATALOG_DIR = join(import.meta.dirname, 'catalog');
export const DEMO_CATALOG_SOURCE = {
  name: 'olm-console-demo',
  displayName: 'olm-console demo operators',
  publisher: 'olm-console',
};
