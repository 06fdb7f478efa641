// Whether a package can run on the cluster's nodes: its `operatorframework.io/os.*` and
// `arch.*` labels against the nodes' `kubernetes.io/os` / `arch`. A package that declares none
// is linux/amd64, as OLM and packageserver assume.
export interface Platform {
  os: string;
  arch: string;
}

export function notRunnableReason(
  pkg: { os: readonly string[]; arch: readonly string[] },
  nodes: readonly Platform[] | undefined,
): string | undefined {
  if (!nodes || nodes.length === 0) return undefined;
  const os = pkg.os.length ? pkg.os : ['linux'];
  const arch = pkg.arch.length ? pkg.arch : ['amd64'];
  if (nodes.some((n) => os.includes(n.os) && arch.includes(n.arch))) return undefined;
  const have = [...new Set(nodes.map((n) => `${n.os}/${n.arch}`))].sort().join(', ');
  return `built for ${os.flatMap((o) => arch.map((a) => `${o}/${a}`)).join(', ')}; this cluster's nodes are ${have}`;
}
