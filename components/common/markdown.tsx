// Third-party markdown, rendered by lib/client/markdown (raw HTML escaped, http(s) links only,
// images only from the origins the administrator allows, which the session names).
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { apiGet, type SessionInfo } from '@/lib/client/api';
import { renderMarkdown } from '@/lib/client/markdown';

export function Markdown({ source, className }: { source: string; className?: string }) {
  const session = useQuery({ queryKey: ['session'], queryFn: ({ signal }) => apiGet<SessionInfo>('/api/session', signal), staleTime: Infinity });
  const imageOrigins = session.data?.imageOrigins;
  const html = useMemo(() => renderMarkdown(source, { imageOrigins }), [source, imageOrigins]);
  // The HTML comes from markdown-it with html disabled and links validated: nothing raw passes.
  return <div className={`markdown ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
