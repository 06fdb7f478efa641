import type { Metadata } from 'next';
import { ApprovalsAcrossView } from '@/components/fleet/approvals-view';

export const metadata: Metadata = { title: 'Approvals across clusters · OLM Console' };

export default function FleetApprovalsPage() {
  return <ApprovalsAcrossView />;
}
