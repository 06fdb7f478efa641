// What the "Move to OLM v1" routes answer: whether the operator can move and every reason it
// cannot (an existing object it may not take over is named in its reason's `object`), or the
// steps of the move, each with the writes it makes and what stops the person, and the objects v1
// would apply, each taken over from OLM v0 or new.
import type { MigrationContentSource, MigrationReason } from '../olm/v1/migration-check';

export interface MigrationWriteView {
  verb: 'create' | 'patch' | 'delete';
  kind: string;
  name: string;
  namespace?: string;
  /** "Orphan": deleted without deleting what it owns. */
  propagationPolicy?: string;
}

export interface MigrationStepView {
  id: string;
  title: string;
  why: string;
  writes: MigrationWriteView[];
  /** Why the person may not make one of this step's writes (SelfSubjectAccessReview), when so. */
  denied?: string;
}

/** An object OLM v1 would apply: one OLM v0 installed for the CSV, taken over, or one it creates. */
export interface MigrationObjectView {
  kind: string;
  name: string;
  namespace?: string;
  fate: 'adopt' | 'new';
}

export interface MigrationView {
  csv: string;
  namespace: string;
  canMove: boolean;
  reasons: MigrationReason[];
  /**
   * Where the bundle's manifests were read, once they were: the catalog's own objects, or its image
   * (the reference the catalog names and the digest read). A move may name the digest it was shown.
   */
  source?: MigrationContentSource;
  /** Present when it can move. */
  extension?: string;
  version?: string;
  channel?: string;
  catalog?: string;
  steps?: MigrationStepView[];
  /** True when some step is denied: the move cannot be applied by this person. */
  blocked?: boolean;
  /** Present when it can move: every object v1 would apply, taken over from OLM v0 or new. */
  objects?: MigrationObjectView[];
}

export interface MigrationStepOutcome {
  id: string;
  title: string;
  state: 'done' | 'failed' | 'not-run' | 'undone' | 'undo-failed';
  message?: string;
}

export interface MigrationResult {
  ok: boolean;
  extension: string;
  steps: MigrationStepOutcome[];
  /** What a failed move could not put back, in words. */
  notRestored: string[];
  message?: string;
}
