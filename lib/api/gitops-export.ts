// `GET /api/operators/<ns>/<csv>/export`: an installed operator as a GitOps tree. Types only.
import type { ExportFile } from '../olm/install/gitops-export';

export interface GitopsExport {
  /** The application folder's name. */
  application: string;
  files: ExportFile[];
  /** What the tree could not say exactly, for the person to check. */
  notes: string[];
}
