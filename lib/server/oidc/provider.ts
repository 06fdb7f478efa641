// The identity provider as openid-client knows it: its discovery document, read once per copy of
// this module, and read again after a failure. Not shared on globalThis as other caches are: the
// HTTP server and each route bundle hold their own copy of openid-client, which accepts only a
// Configuration its own copy made.
import * as client from 'openid-client';
import { fetchWithCa } from './fetch-with-ca';
import { oidcSettings, type OidcSettings } from './settings';

let discovered: Promise<client.Configuration> | undefined;

async function discover(s: OidcSettings): Promise<client.Configuration> {
  const customFetch = s.caPem ? fetchWithCa(s.caPem) : undefined;
  const options = customFetch ? { [client.customFetch]: customFetch as client.CustomFetch } : undefined;
  const auth = client.ClientSecretBasic(s.clientSecret);
  const config = await client.discovery(new URL(s.issuer), s.clientId, s.clientSecret, auth, options);
  if (customFetch) config[client.customFetch] = customFetch as client.CustomFetch;
  return config;
}

/** The provider's configuration; throws when the console has none configured or the issuer cannot be read. */
export function oidcConfiguration(settings = oidcSettings()): Promise<client.Configuration> {
  if (!settings) throw new Error('this console has no identity provider configured (start it with --oidc-issuer)');
  if (!discovered) {
    const p = discover(settings);
    discovered = p;
    p.catch(() => {
      if (discovered === p) discovered = undefined;
    });
  }
  return discovered;
}
