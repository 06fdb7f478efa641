import { InstallProgress } from '@/components/install/install-progress';

export default async function InstallProgressPage({
  params,
}: {
  params: Promise<{ namespace: string; name: string }>;
}) {
  const p = await params;
  return <InstallProgress namespace={decodeURIComponent(p.namespace)} name={decodeURIComponent(p.name)} />;
}
