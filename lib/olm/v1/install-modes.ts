// The install modes OLM v1 v1.2.0 honours: with its feature gate SingleOwnNamespaceInstallSupport
// off (the default) a registry+v1 bundle is always installed for all namespaces, and one that does
// not support AllNamespaces is refused (rukpak/convert/registryv1.go). docs/olm-v1/install.md.

/** Whether v1.2.0 can install a bundle with these install modes. */
export function installsForAllNamespaces(modes: readonly { type: string; supported: boolean }[]): boolean {
  return modes.some((m) => m.type === 'AllNamespaces' && m.supported);
}
