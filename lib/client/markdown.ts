// Catalog descriptions are third-party markdown. Raw HTML is never passed through (markdown-it
// escapes it), links must be http(s), mailto (catalogs give a contact address so: the browser
// hands it to a mail program and nothing runs) or an in-page anchor, and links open in a new tab without
// handing the catalog page a reference to the console. Images are requests made in the reader's
// name (tracking pixels, a cookie-bearing GET to the console itself, mixed content), so they are
// shown only from origins the administrator allows; any other image becomes a link to it.
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });

md.validateLink = (url: string): boolean => {
  const u = url.trim().toLowerCase();
  return (
    u.startsWith('https://') ||
    u.startsWith('http://') ||
    /^mailto:[^\s:/]+@[^\s:/]+$/.test(u) ||
    (u.startsWith('#') && !u.includes(':'))
  );
};

md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  const token = tokens[idx]!;
  const href = token.attrGet('href') ?? '';
  if (!href.startsWith('#') && !href.startsWith('mailto:')) {
    token.attrSet('target', '_blank');
    token.attrSet('rel', 'noopener noreferrer nofollow');
  }
  return self.renderToken(tokens, idx, options);
};

md.renderer.rules.image = (tokens, idx, _options, env: { imageOrigins?: readonly string[] }) => {
  const token = tokens[idx]!;
  const src = token.attrGet('src') ?? '';
  const alt = md.utils.escapeHtml(token.content || 'image');
  let origin: string | undefined;
  try {
    const u = new URL(src);
    if (u.protocol === 'https:' || u.protocol === 'http:') origin = u.origin;
  } catch {
    origin = undefined;
  }
  if (origin && env.imageOrigins?.includes(origin)) {
    return `<img src="${md.utils.escapeHtml(src)}" alt="${alt}" loading="lazy" referrerpolicy="no-referrer">`;
  }
  if (origin)
    return `<a href="${md.utils.escapeHtml(src)}" target="_blank" rel="noopener noreferrer nofollow">[image: ${alt}]</a>`;
  return `[image: ${alt}]`;
};

/** Safe HTML for a catalog's markdown; images only from `imageOrigins` (what the administrator allows). */
export function renderMarkdown(source: string, opts: { imageOrigins?: readonly string[] } = {}): string {
  return md.render(source, { imageOrigins: opts.imageOrigins ?? [] });
}
