// Security headers for everything the console serves. Pages may not be framed (clickjacking),
// run only the console's own scripts (Next.js's inline ones carry the request's nonce), and show
// images only from the console itself and data: URLs unless the administrator allows more
// origins: catalog descriptions are third-party and an image is a request made in the person's
// name.

export interface HeaderOptions {
  nonce: string;
  /** The browser reached the console over TLS: add HSTS. */
  tls: boolean;
  /** Extra image origins the administrator allows (`OLM_CONSOLE_IMAGE_ORIGINS`). */
  imageOrigins: readonly string[];
  /** `next dev` needs eval for its fast refresh. */
  dev?: boolean;
}

export function contentSecurityPolicy(o: HeaderOptions): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${o.nonce}'${o.dev ? " 'unsafe-eval'" : ''}`,
    // React writes style attributes during server render; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    ['img-src', "'self'", 'data:', ...o.imageOrigins].join(' '),
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(o: HeaderOptions): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(o),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    ...(o.tls ? { 'Strict-Transport-Security': 'max-age=31536000' } : {}),
  };
}

/** `OLM_CONSOLE_IMAGE_ORIGINS`: comma-separated https origins whose images catalog descriptions may show. */
export function imageOriginsFromEnv(env: Record<string, string | undefined> = process.env): string[] {
  return (env.OLM_CONSOLE_IMAGE_ORIGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const u = new URL(s);
      if (u.protocol !== 'https:') throw new Error(`OLM_CONSOLE_IMAGE_ORIGINS: "${s}" is not an https origin`);
      return u.origin;
    });
}
