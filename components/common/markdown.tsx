// Third-party markdown, rendered by lib/client/markdown (raw HTML escaped, http(s) links only,
// images only from the origins the administrator allows, which the session names).
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { apiGet, type SessionInfo } from '@/lib/client/api';
import { renderMarkdown } from '@/lib/client/markdown';

// Code blocks and long words wrap rather than scroll sideways: a catalog's sample YAML stays readable
// on a phone, and no box needs a keyboard to scroll it.
const FIT = '[overflow-wrap:anywhere] [&_pre]:whitespace-pre-wrap [&_pre]:[overflow-wrap:anywhere]';

export function Markdown({ source, className }: { source: string; className?: string }) {
  const session = useQuery({
    queryKey: ['session'],
    queryFn: ({ signal }) => apiGet<SessionInfo>('/api/session', signal),
    staleTime: Infinity,
  });
  const imageOrigins = session.data?.imageOrigins;
  const html = useMemo(() => renderMarkdown(source, { imageOrigins }), [source, imageOrigins]);
  // The HTML comes from markdown-it with html disabled and links validated: nothing raw passes.
  return <div className={`markdown ${FIT} ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
