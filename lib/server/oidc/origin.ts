// The console's own origin for a request, for the redirect URIs the provider sends the browser
// back to: the public URL when one is configured, else the Host the HTTP server has already
// checked against the allowed names (lib/server/security/origin-policy.ts), with its TLS verdict.
import { effectiveHost, originPolicyFromEnv } from '../security/origin-policy';

export function consoleOrigin(req: Request, env: Record<string, string | undefined> = process.env): string {
  const policy = originPolicyFromEnv(env);
  if (policy.publicOrigin) return policy.publicOrigin;
  const facts = { host: req.headers.get('host'), forwardedHost: req.headers.get('x-forwarded-host') };
  const host = effectiveHost(policy, facts);
  const tls = req.headers.get('x-olm-console-tls') === 'true';
  return `${tls ? 'https' : 'http'}://${host ?? new URL(req.url).host}`;
}
