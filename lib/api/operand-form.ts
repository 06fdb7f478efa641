// `/api/operators/<ns>/<csv>/forms/<group>/<version>/<plural>`: what the browser builds the
// create form of an operator's API from. Types only.
import type { WatchedNamespaces } from '../olm/operand-form/namespaces';
import type { OperandApi } from './operands';

export interface OperandFormSource {
  api: OperandApi;
  /** The CRD version's `openAPIV3Schema`, read from the cluster; absent when it could not be. */
  schema?: unknown;
  /** Why there is no schema (the person may not read the CRD, it does not serve the version…). */
  schemaProblem?: string;
  /** The CSV's spec descriptors of this API, in its order. */
  specDescriptors: unknown[];
  /** The CSV's example of this API (alm-examples), to start from. */
  example?: Record<string, unknown>;
  /** The API's scope, as the cluster's discovery says (readable where the CRD may not be). */
  namespaced: boolean;
  /** Where the operator runs (a copied CSV's form is served from its source). */
  operatorNamespace: string;
  /** Where its operands can go: the namespaces the operator watches. */
  watched: WatchedNamespaces;
  /**
   * The person may not read the operator's CSV where it runs: the form comes from OLM's copy in
   * the page's namespace, and `watched` is that namespace alone (a copy does not say the rest).
   */
  copyOnly?: boolean;
}
