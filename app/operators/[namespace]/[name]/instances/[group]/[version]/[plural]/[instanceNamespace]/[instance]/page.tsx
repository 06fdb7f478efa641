import type { Metadata } from 'next';
import { InstanceView } from '@/components/operators/instance-view';

export const metadata: Metadata = { title: 'Instance · OLM Console' };

type Params = {
  namespace: string;
  name: string;
  group: string;
  version: string;
  plural: string;
  instanceNamespace: string;
  instance: string;
};

export default async function InstancePage({ params }: { params: Promise<Params> }) {
  const p = Object.fromEntries(Object.entries(await params).map(([k, v]) => [k, decodeURIComponent(v)])) as Params;
  return (
    <InstanceView
      namespace={p.namespace}
      csv={p.name}
      group={p.group}
      version={p.version}
      plural={p.plural}
      instanceNamespace={p.instanceNamespace}
      instance={p.instance}
    />
  );
}
