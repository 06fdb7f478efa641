// What went wrong with a sign-in, in words a person understands, from what the provider answered
// or what openid-client's checks of the answer refused. Each ends the same way: sign in again.
import { AuthorizationResponseError, ClientError, ResponseBodyError } from 'openid-client';

export type SignInProblem =
  | 'missing'
  | 'stale'
  | 'state'
  | 'nonce'
  | 'audience'
  | 'issuer'
  | 'expired'
  | 'denied'
  | 'code'
  | 'provider'
  | 'cookie-size'
  | 'refused'
  | 'cluster';

export const PROBLEM_TEXT: Record<SignInProblem, string> = {
  missing:
    'No sign-in was in progress in this browser: the link back from the identity provider was opened elsewhere, ' +
    'used twice, or made up.',
  stale: 'The sign-in took longer than ten minutes.',
  state:
    'The answer from the identity provider does not belong to the sign-in this browser started (wrong state), ' +
    'so it was refused.',
  nonce: 'The identity token does not belong to this sign-in (wrong nonce), so it was refused.',
  audience: 'The identity token was issued for another application (wrong audience), so it was refused.',
  issuer: 'The identity token was issued by another identity provider (wrong issuer), so it was refused.',
  expired: 'The identity token has expired, or is not valid yet (check the clocks of this server and the provider).',
  denied: 'The identity provider did not sign you in.',
  code: 'The sign-in code was already used or has expired.',
  provider: 'The identity provider could not be reached or gave an answer the console cannot use.',
  'cookie-size':
    "The tokens the identity provider issued are too large for the console's session cookie (4 KB). Ask the " +
    'administrator to have the provider issue fewer claims (groups above all) to this client.',
  refused:
    'The cluster did not accept the identity token: its API server may not trust this identity provider, ' +
    'or not for this console.',
  cluster: 'The cluster could not be reached to check who you are.',
};

/** The problem behind an error from openid-client (or the provider's own error answer). */
export function signInProblem(err: unknown): SignInProblem {
  if (err instanceof AuthorizationResponseError) return 'denied';
  if (err instanceof ResponseBodyError) return err.error === 'invalid_grant' ? 'code' : 'provider';
  if (!(err instanceof ClientError)) return 'provider';
  // openid-client words its own message generally; what failed is in the cause and the code.
  const detail = `${err.message} ${err.cause instanceof Error ? err.cause.message : ''}`;
  if (/TIMESTAMP/.test(err.code ?? '') || /"exp"|"iat"|"nbf"/.test(detail)) return 'expired';
  if (/"state"/.test(detail)) return 'state';
  if (/nonce/.test(detail)) return 'nonce';
  if (/"aud"|audience/.test(detail)) return 'audience';
  if (/"iss"|issuer/.test(detail)) return 'issuer';
  return 'provider';
}
