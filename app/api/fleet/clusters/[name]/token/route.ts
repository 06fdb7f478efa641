// POST /api/fleet/clusters/<name>/token {token} (a console page, with its CSRF token): adds the
// person's own token for that cluster, when the clusters do not all accept the token they logged
// in with. It is checked against that cluster first (a SelfSubjectReview with it: the cluster's own
// word on who it is); one the cluster refuses is a 401 and kept nowhere. A token it accepts is
// kept in a sealed cookie of this session (lib/server/fleet/cluster-tokens.ts) and sent to that
// cluster only. Answers {cluster, username}. DELETE removes it: {cluster, removed}.
import { z } from 'zod';
import { KubeError } from '@/lib/k8s/errors';
import { KubeClient } from '@/lib/k8s/client';
import { kubeConfigForToken } from '@/lib/k8s/cluster-config';
import type { FleetTokenAdded, FleetTokenRemoved } from '@/lib/api/fleet-tokens';
import { ApiError, readJson } from '@/lib/server/api-error';
import { sessionKey } from '@/lib/server/context';
import {
  clusterTokenCookieHeader,
  clusterTokenCookieName,
  sealClusterToken,
  tokenCookieTooBig,
} from '@/lib/server/fleet/cluster-tokens';
import { namedCluster, tokenRequest } from '@/lib/server/fleet/cluster-token-request';
import { whoAmI } from '@/lib/server/permissions';
import { route, type RouteContext } from '@/lib/server/route';
import { endTokenCredentials } from '@/lib/server/session-lease';

export const dynamic = 'force-dynamic';

// As the login's: a bearer token is printable ASCII (RFC 6750's token68, JWTs, service-account tokens).
const Body = z.strictObject({
  token: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(4_000, 'is too long to keep for a cluster (at most 4,000 characters)')
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces or control characters, as a bearer token is'),
});

export const POST = route(async (req, ctx: RouteContext) => {
  const { name } = await ctx.params;
  const r = tokenRequest(req, true);
  const member = namedCluster(name!);
  const { token } = await readJson(req, Body);
  let username: string;
  try {
    username = await whoAmI(new KubeClient(kubeConfigForToken(member.access, token)));
  } catch (err) {
    if (err instanceof KubeError && err.code === 401)
      throw new ApiError(401, 'Unauthorized', `${member.name} did not accept this token; nothing was kept`);
    if (err instanceof KubeError) throw err;
    throw new ApiError(
      502,
      'BadGateway',
      `${member.name} could not be asked about this token (${(err as Error).message}); nothing was kept`,
    );
  }
  const cookieName = clusterTokenCookieName(member.name, r.secure);
  const value = sealClusterToken(
    { cluster: member.name, token, username, addedAt: Date.now() },
    r.session,
    sessionKey(),
  );
  // The cookie ends with the session; the session's own checks (idle, logout) end it sooner.
  const maxAgeSeconds = r.session.expiresAt - Math.floor(Date.now() / 1000);
  const setCookie = clusterTokenCookieHeader(cookieName, value, { secure: r.secure, maxAgeSeconds });
  const tooBig = tokenCookieTooBig(r.cookies, cookieName, value, setCookie);
  if (tooBig) throw new ApiError(413, 'RequestEntityTooLarge', `${tooBig}; nothing was kept`);
  const body: FleetTokenAdded = { cluster: member.name, username };
  return Response.json(body, { headers: { 'Set-Cookie': setCookie, 'Cache-Control': 'no-store' } });
});

export const DELETE = route(async (req, ctx: RouteContext) => {
  const { name } = await ctx.params;
  const r = tokenRequest(req, true);
  const member = namedCluster(name!);
  const cookieName = clusterTokenCookieName(member.name, r.secure);
  const body: FleetTokenRemoved = { cluster: member.name, removed: r.tokens.has(member.name) };
  // A port-forward opened with that token on that cluster goes with it.
  const removed = r.tokens.get(member.name);
  if (removed) endTokenCredentials(removed.token);
  return Response.json(body, {
    headers: {
      'Set-Cookie': clusterTokenCookieHeader(cookieName, '', { secure: r.secure, maxAgeSeconds: 0 }),
      'Cache-Control': 'no-store',
    },
  });
});
