// How stored objects are shown to a client: at the version asked for, as a Table when the client
// accepts one, filtered by label and field selectors.
import type { IncomingMessage } from 'node:http';
import { parseFieldSelector, parseLabelSelector } from '../apimachinery/selectors';
import type { KObject } from '../store/types';
import type { ServedResource } from './resources';

/** The object as the client asked for it: at the requested version. */
export function present(r: ServedResource, version: string, o: KObject): KObject {
  return { ...o, apiVersion: r.group ? `${r.group}/${version}` : version, kind: r.kind };
}

export function wantsTable(req: IncomingMessage): boolean {
  return /as=Table/.test(req.headers.accept ?? '');
}

export function objectFilter(r: ServedResource, url: URL): (o: KObject) => boolean {
  const labels = parseLabelSelector(url.searchParams.get('labelSelector'));
  const fields = parseFieldSelector(url.searchParams.get('fieldSelector'), [
    'metadata.name',
    'metadata.namespace',
    ...(r.fieldSelectors ?? []),
  ]);
  return (o) => labels(o.metadata.labels) && fields(o as unknown as Record<string, unknown>);
}
