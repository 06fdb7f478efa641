// A rollout as files for Git, as the install wizard's export (lib/olm/install/gitops-export.ts):
// a kustomize tree of the hub objects, each in a folder named for its kind, applied to the hub
// with `kubectl apply -k`. It carries what the preview would write, including the cluster-set
// bindings and the hub namespace it lacked; nothing any controller writes (status).
import { dump } from 'js-yaml';
import type { ExportFile } from '../install/gitops-export';

type Obj = { kind?: unknown; metadata?: { name?: string; namespace?: string } } & Record<string, unknown>;

const yaml = (o: unknown) => dump(o, { noRefs: true, lineWidth: 120 });

export function rolloutFiles(objects: readonly Obj[]): ExportFile[] {
  const files = objects.map((o) => {
    const { status: _status, ...clean } = o; // eslint-disable-line @typescript-eslint/no-unused-vars
    const kind = String(o.kind).toLowerCase();
    const ns = o.metadata?.namespace;
    return { path: `${kind}s/${ns ? `${ns}/` : ''}${o.metadata?.name}.yaml`, content: yaml(clean) };
  });
  return [
    {
      path: 'kustomization.yaml',
      content: yaml({
        apiVersion: 'kustomize.config.k8s.io/v1beta1',
        kind: 'Kustomization',
        resources: files.map((f) => f.path),
      }),
    },
    ...files,
  ];
}
