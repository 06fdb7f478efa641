// Sign-in with an identity provider: what `npm start -- --oidc-issuer URL --oidc-client-id ID` (or
// the OLM_CONSOLE_OIDC_* environment) configures. The client secret and the issuer's CA come from
// files or the environment, never from the command line where `ps` shows them.
import { readFileSync } from 'node:fs';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** PEM of the CA the issuer's certificate chains to, when it is not one the system trusts. */
  caPem?: string;
  /** Scopes asked for: openid (the ID token), offline_access (a refresh token), and the claims kube-apiserver maps. */
  scopes: string;
}

const SCOPES = 'openid offline_access email profile groups';

function fromFileOrEnv(env: Record<string, string | undefined>, name: string): string | undefined {
  const file = env[`${name}_FILE`];
  if (file) return readFileSync(file, 'utf8').trim();
  return env[name]?.trim() || undefined;
}

/** The settings, or undefined when no issuer is configured; throws, naming the variable, when they are incomplete. */
export function oidcSettings(env: Record<string, string | undefined> = process.env): OidcSettings | undefined {
  const issuer = env.OLM_CONSOLE_OIDC_ISSUER?.trim();
  if (!issuer) return undefined;
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`OLM_CONSOLE_OIDC_ISSUER (--oidc-issuer) must be a URL, got "${issuer}"`);
  }
  if (url.protocol !== 'https:') throw new Error(`the OIDC issuer must be served over https, got "${issuer}"`);
  const clientId = env.OLM_CONSOLE_OIDC_CLIENT_ID?.trim();
  if (!clientId) throw new Error('OLM_CONSOLE_OIDC_CLIENT_ID (--oidc-client-id) is required with an OIDC issuer');
  const clientSecret = fromFileOrEnv(env, 'OLM_CONSOLE_OIDC_CLIENT_SECRET');
  if (!clientSecret) {
    const how = 'OLM_CONSOLE_OIDC_CLIENT_SECRET or --oidc-client-secret-file (OLM_CONSOLE_OIDC_CLIENT_SECRET_FILE)';
    throw new Error(`the OIDC client secret is required: ${how}`);
  }
  const caFile = env.OLM_CONSOLE_OIDC_CA_FILE;
  const caPem = caFile ? readFileSync(caFile, 'utf8') : env.OLM_CONSOLE_OIDC_CA?.trim() || undefined;
  const scopes = env.OLM_CONSOLE_OIDC_SCOPES?.trim() || SCOPES;
  return { issuer: issuer.replace(/\/$/, ''), clientId, clientSecret, caPem, scopes };
}

export function oidcEnabled(env: Record<string, string | undefined> = process.env): boolean {
  return !!env.OLM_CONSOLE_OIDC_ISSUER?.trim();
}
