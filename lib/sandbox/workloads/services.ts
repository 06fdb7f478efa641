// What kube-apiserver does to a Service it stores (core/v1 defaults and the Service registry): a
// cluster IP allocated from the service range for every type but a headless or ExternalName
// Service, the single-stack IPv4 family, session affinity and traffic policy defaults, each
// port's protocol and target port; and the `kubectl get` columns its printer computes.
import { randomInt } from 'node:crypto';
import type { TableColumn } from '../apimachinery/table';
import type { KObject } from '../store/types';

type Obj = Record<string, unknown>;

function fill(o: Obj, defaults: Obj): void {
  for (const [k, v] of Object.entries(defaults)) if (o[k] === undefined) o[k] = v;
}

/** An address in 10.96.0.0/12, kube-apiserver's default service range, past the API's own 10.96.0.1. */
function allocate(): string {
  const n = randomInt(2, 2 ** 20 - 1);
  return `10.${96 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}

export function serviceDefaults(o: KObject, creating: boolean): void {
  const spec = ((o as unknown as Obj).spec ??= {}) as Obj;
  fill(spec, { type: 'ClusterIP', sessionAffinity: 'None' });
  for (const p of (spec.ports as Obj[] | undefined) ?? []) fill(p, { protocol: 'TCP', targetPort: p.port });
  if (spec.type === 'ExternalName') return;
  if (creating && !spec.clusterIP) spec.clusterIP = allocate();
  if (spec.clusterIP && !spec.clusterIPs) spec.clusterIPs = [spec.clusterIP];
  fill(spec, { ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', internalTrafficPolicy: 'Cluster' });
  if (creating) (o as unknown as Obj).status ??= { loadBalancer: {} };
}

const get = (o: KObject, k: string) => ((o.spec ?? {}) as Obj)[k];

export const SERVICE_COLUMNS: TableColumn[] = [
  { name: 'Type', type: 'string', jsonPath: '.spec.type' },
  { name: 'Cluster-IP', type: 'string', jsonPath: '.spec.clusterIP' },
  {
    name: 'External-IP',
    type: 'string',
    jsonPath: '.spec.externalIPs',
    value: (o) => {
      const ips = [
        ...((get(o, 'externalIPs') as string[] | undefined) ?? []),
        ...(((o.status as Obj | undefined)?.loadBalancer as { ingress?: Obj[] } | undefined)?.ingress ?? []).map(
          (i) => i.ip ?? i.hostname,
        ),
      ];
      if (get(o, 'type') === 'ExternalName') return get(o, 'externalName') ?? '<none>';
      if (ips.length) return ips.join(',');
      return get(o, 'type') === 'LoadBalancer' ? '<pending>' : '<none>';
    },
  },
  {
    name: 'Port(s)',
    type: 'string',
    jsonPath: '.spec.ports',
    value: (o) => {
      const ports = (get(o, 'ports') as Obj[] | undefined) ?? [];
      if (!ports.length) return '<none>';
      return ports.map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`).join(',');
    },
  },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  {
    name: 'Selector',
    type: 'string',
    jsonPath: '.spec.selector',
    priority: 1,
    value: (o) => {
      const sel = Object.entries((get(o, 'selector') as Record<string, string> | undefined) ?? {});
      return sel.length ? sel.map(([k, v]) => `${k}=${v}`).join(',') : '<none>';
    },
  },
];
