// Catalog descriptions are third-party markdown. Raw HTML is never passed through (markdown-it
// escapes it), links and images must be http(s) (or an in-page anchor), and links open in a new
// tab without handing the catalog page a reference to the console.
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });

md.validateLink = (url: string): boolean => {
  const u = url.trim().toLowerCase();
  return u.startsWith('https://') || u.startsWith('http://') || (u.startsWith('#') && !u.includes(':'));
};

md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  const token = tokens[idx]!;
  if (!(token.attrGet('href') ?? '').startsWith('#')) {
    token.attrSet('target', '_blank');
    token.attrSet('rel', 'noopener noreferrer nofollow');
  }
  return self.renderToken(tokens, idx, options);
};

/** Safe HTML for a catalog's markdown. */
export function renderMarkdown(source: string): string {
  return md.render(source);
}
