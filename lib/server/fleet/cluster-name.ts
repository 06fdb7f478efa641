// What a cluster's name may be, decided once for the flags, the clusters file and the API. Names
// come from kubeconfig contexts too, which tools name freely (`kind-dev`, `gke_project_zone_name`,
// an EKS ARN `arn:aws:eks:region:account:cluster/name`), so the rule admits those characters and
// nothing that could break a URL's query, a header or a line of the start banner.
export const CLUSTER_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,252}$/;

export const CLUSTER_NAME_RULE =
  'letters, digits and . _ : @ / - (starting with a letter or digit), at most 253 characters';

export function isClusterName(name: string): boolean {
  return CLUSTER_NAME_PATTERN.test(name);
}

export interface ClusterFlag {
  name: string;
  kubeconfig: string;
  context?: string;
}

/**
 * `--cluster NAME=KUBECONFIG[:CONTEXT]`: the context is everything after the first colon that
 * follows the path, since context names (EKS ARNs) hold colons and file paths seldom do.
 */
export function parseClusterFlag(value: string): { ok: true; flag: ClusterFlag } | { ok: false; message: string } {
  const bad = (why: string) => ({
    ok: false as const,
    message:
      `--cluster takes NAME=KUBECONFIG[:CONTEXT] (for example prod=~/.kube/prod.yaml:admin), ` +
      `got "${value}": ${why}`,
  });
  const eq = value.indexOf('=');
  if (eq <= 0) return bad('no NAME= before the kubeconfig');
  const name = value.slice(0, eq);
  if (!isClusterName(name)) return bad(`the name must be ${CLUSTER_NAME_RULE}`);
  const rest = value.slice(eq + 1);
  const colon = rest.indexOf(':');
  const kubeconfig = colon < 0 ? rest : rest.slice(0, colon);
  const context = colon < 0 ? undefined : rest.slice(colon + 1);
  if (!kubeconfig) return bad('no kubeconfig path after the =');
  if (context === '') return bad('an empty context after the colon (leave out ":" for the current context)');
  return { ok: true, flag: { name, kubeconfig, ...(context ? { context } : {}) } };
}
