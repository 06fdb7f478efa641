// `GET /api/namespaces/<ns>/<secrets|configmaps>`: the names a picker offers. Types only.

export type NamedKind = 'secrets' | 'configmaps';

export interface ObjectNames {
  names: string[];
  /** There are more than the first page holds; the picker still takes a typed name. */
  more: boolean;
}
