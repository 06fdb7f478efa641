// Where an extension's page is (the URL plan every OLM v1 page links by).
export function extensionHref(name: string, tab?: string): string {
  return `/clusterextensions/${encodeURIComponent(name)}${tab ? `?tab=${tab}` : ''}`;
}
