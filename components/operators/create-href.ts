// The address of the page that creates an instance of an API an operator owns (the form).
export function createOperandHref(
  namespace: string,
  csv: string,
  api: { group: string; version: string; plural: string },
): string {
  return `/operators/${[namespace, csv].map(encodeURIComponent).join('/')}/create/${[api.group, api.version, api.plural].map(encodeURIComponent).join('/')}`;
}
