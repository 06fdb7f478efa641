// The authorization code flow with PKCE (S256), state and nonce, through openid-client: the
// redirect to the provider, the exchange of the code (openid-client checks the ID token's
// signature, issuer, audience, nonce and expiry), the refresh, and the provider's logout URL.
// The ID token is kept only as the person's bearer token to the API server, which checks it
// again and alone decides who they are: no claim in it is believed here.
import * as client from 'openid-client';
import { oidcConfiguration } from './provider';
import type { SignInState } from './state-cookie';

export const CALLBACK_PATH = '/api/auth/callback';

export interface OidcTokens {
  idToken: string;
  refreshToken?: string;
  /** Unix seconds: the ID token's `exp`. */
  expiresAt: number;
}

/** Where to send the browser, and the state to keep in its sign-in cookie. */
export async function beginSignIn(
  origin: string,
  next: string,
  scopes: string,
  now = Date.now(),
): Promise<{ url: URL; state: SignInState }> {
  const config = await oidcConfiguration();
  const verifier = client.randomPKCECodeVerifier();
  const startedAt = Math.floor(now / 1000);
  const state: SignInState = { state: client.randomState(), nonce: client.randomNonce(), verifier, next, startedAt };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: `${origin}${CALLBACK_PATH}`,
    scope: scopes,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: state.state,
    nonce: state.nonce,
  });
  return { url, state };
}

type TokenAnswer = client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;

function tokensOf(r: TokenAnswer, previousRefresh?: string): OidcTokens {
  const claims = r.claims();
  if (!r.id_token || !claims) throw new client.ClientError('the identity provider returned no ID token');
  // A provider that does not rotate refresh tokens sends none on refresh: the old one stays good.
  return { idToken: r.id_token, refreshToken: r.refresh_token ?? previousRefresh, expiresAt: claims.exp };
}

/** The tokens for the provider's redirect back to `callbackUrl`, checked against this browser's sign-in state. */
export async function finishSignIn(callbackUrl: URL, s: SignInState): Promise<OidcTokens> {
  const config = await oidcConfiguration();
  const r = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: s.verifier,
    expectedState: s.state,
    expectedNonce: s.nonce,
    idTokenExpected: true,
  });
  return tokensOf(r);
}

/** New tokens for a refresh token (which the provider may rotate: the old one is then spent). */
export async function refreshTokens(refreshToken: string): Promise<OidcTokens> {
  const config = await oidcConfiguration();
  return tokensOf(await client.refreshTokenGrant(config, refreshToken), refreshToken);
}

/** The provider's logout URL (ends its session too), or undefined when it has no end_session_endpoint. */
export async function endSessionUrl(idToken: string, postLogoutRedirect: string): Promise<string | undefined> {
  const config = await oidcConfiguration();
  if (!config.serverMetadata().end_session_endpoint) return undefined;
  const params = { id_token_hint: idToken, post_logout_redirect_uri: postLogoutRedirect };
  return client.buildEndSessionUrl(config, params).href;
}
