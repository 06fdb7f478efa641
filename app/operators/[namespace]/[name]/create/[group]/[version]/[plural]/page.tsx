import type { Metadata } from 'next';
import { Suspense } from 'react';
import { CreateOperand } from '@/components/operand-form/create-operand';

export const metadata: Metadata = { title: 'Create instance · OLM Console' };

type Params = { namespace: string; name: string; group: string; version: string; plural: string };

export default async function CreateOperandPage({ params }: { params: Promise<Params> }) {
  const p = Object.fromEntries(Object.entries(await params).map(([k, v]) => [k, decodeURIComponent(v)])) as Params;
  return (
    <div className="space-y-3">
      <Suspense fallback={<p role="status">Loading…</p>}>
        <CreateOperand namespace={p.namespace} csv={p.name} group={p.group} version={p.version} plural={p.plural} />
      </Suspense>
    </div>
  );
}
