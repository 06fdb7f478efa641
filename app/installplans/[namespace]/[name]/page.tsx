import type { Metadata } from 'next';
import { InstallPlanView } from '@/components/installplans/install-plan-view';

export const metadata: Metadata = { title: 'InstallPlan · OLM Console' };

export default async function InstallPlanPage({ params }: { params: Promise<{ namespace: string; name: string }> }) {
  const p = await params;
  return <InstallPlanView namespace={decodeURIComponent(p.namespace)} name={decodeURIComponent(p.name)} />;
}
