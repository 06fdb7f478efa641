import type { Metadata } from 'next';
import { OperatorsAcrossView } from '@/components/fleet/operators-view';

export const metadata: Metadata = { title: 'Operators across clusters · OLM Console' };

export default function FleetOperatorsPage() {
  return <OperatorsAcrossView />;
}
