// Acting as another user (`kubectl --as`, `--as-group`), as kube-apiserver's impersonation filter
// allows it: the `Impersonate-User`, `Impersonate-Group` and `Impersonate-Uid` headers are honoured
// only when the authenticated user may `impersonate` each of them (users, service accounts,
// groups, uids), and the request then runs as that user, with `system:authenticated`. A refusal
// is kube-apiserver's 403 naming what could not be impersonated.
import type { IncomingHttpHeaders } from 'node:http';
import { authorize, forbiddenMessage, type RbacSource, type RequestAttributes, type UserInfo } from '../auth/rbac';
import { ApiStatusError } from './http-util';

const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** The user a request acts as: the authenticated one, or the one it impersonates when allowed. */
export function actingUser(rbac: RbacSource, user: UserInfo, headers: IncomingHttpHeaders): UserInfo {
  const name = list(headers['impersonate-user'])[0];
  const groups = list(headers['impersonate-group']).flatMap((g) => g.split(',').map((x) => x.trim()));
  const uid = list(headers['impersonate-uid'])[0];
  if (name === undefined && !groups.length && uid === undefined) return user;
  if (name === undefined)
    throw new ApiStatusError(
      500,
      'InternalError',
      'Internal error occurred: requested impersonation of groups without impersonating a user',
    );
  const checks: RequestAttributes[] = [];
  const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(name);
  checks.push(
    sa
      ? { verb: 'impersonate', group: '', resource: 'serviceaccounts', namespace: sa[1], name: sa[2] }
      : { verb: 'impersonate', group: '', resource: 'users', name },
  );
  for (const g of groups) checks.push({ verb: 'impersonate', group: '', resource: 'groups', name: g });
  if (uid !== undefined)
    checks.push({ verb: 'impersonate', group: 'authentication.k8s.io', resource: 'uids', name: uid });
  for (const a of checks)
    if (!authorize(rbac, user, a))
      throw new ApiStatusError(403, 'Forbidden', forbiddenMessage(user, a), {
        name: a.name,
        group: a.group,
        kind: a.resource,
      });
  const implied = sa ? ['system:serviceaccounts', `system:serviceaccounts:${sa[1]}`] : [];
  return {
    name,
    groups: [...new Set([...groups, ...implied, ...(name === 'system:anonymous' ? [] : ['system:authenticated'])])],
  };
}
