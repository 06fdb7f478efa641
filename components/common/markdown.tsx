// Third-party markdown, rendered by lib/client/markdown (raw HTML escaped, http(s) links only).
import { useMemo } from 'react';
import { renderMarkdown } from '@/lib/client/markdown';

export function Markdown({ source, className }: { source: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  // The HTML comes from markdown-it with html disabled and links validated: nothing raw passes.
  return <div className={`markdown ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
