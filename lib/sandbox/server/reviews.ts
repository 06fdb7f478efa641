// The authorization and authentication reviews (SelfSubjectAccessReview, SubjectAccessReview,
// SelfSubjectRulesReview, SelfSubjectReview): created, never stored, answered by the sandbox's
// RBAC authorizer as kube-apiserver answers them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  allowedBy,
  authorize,
  forbiddenMessage,
  rulesFor,
  type RbacSource,
  type RequestAttributes,
  type UserInfo,
} from '../auth/rbac';
import { readJsonBody, sendJson, sendStatus } from './http-util';
import type { ResourcePath } from './resource-path';
import type { ServedResource } from './resources';

export async function serveReview(
  rbac: RbacSource,
  r: ServedResource,
  rp: ResourcePath,
  req: IncomingMessage,
  res: ServerResponse,
  user: UserInfo,
): Promise<void> {
  const body = ((await readJsonBody(req)) ?? {}) as { spec?: Record<string, unknown> };
  const spec = body.spec ?? {};
  const apiVersion = `${r.group}/${rp.version}`;
  if (r.resource === 'selfsubjectreviews') {
    return sendJson(res, 201, {
      kind: r.kind,
      apiVersion,
      metadata: { creationTimestamp: null },
      status: { userInfo: { username: user.name, groups: user.groups } },
    });
  }
  if (r.resource === 'selfsubjectaccessreviews' || r.resource === 'subjectaccessreviews') {
    let subject = user;
    if (r.resource === 'subjectaccessreviews') {
      if (!authorize(rbac, user, { verb: 'create', group: r.group, resource: r.resource })) {
        return sendStatus(
          res,
          403,
          'Forbidden',
          forbiddenMessage(user, { verb: 'create', group: r.group, resource: r.resource }),
        );
      }
      // The subject is exactly who the review names: kube-apiserver adds no group to it, so a
      // user named without groups is a member of none (not even system:authenticated).
      subject = { name: String(spec.user ?? ''), groups: [...((spec.groups as string[] | undefined) ?? [])] };
    }
    const ra = spec.resourceAttributes as
      | { verb?: string; group?: string; resource?: string; subresource?: string; namespace?: string; name?: string }
      | undefined;
    const nra = spec.nonResourceAttributes as { verb?: string; path?: string } | undefined;
    if (!ra && !nra)
      return sendStatus(
        res,
        422,
        'Invalid',
        `${r.kind}.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified`,
      );
    const attrs: RequestAttributes = ra
      ? {
          verb: ra.verb ?? '',
          group: ra.group ?? '',
          resource: ra.resource ?? '',
          subresource: ra.subresource || undefined,
          namespace: ra.namespace || undefined,
          name: ra.name || undefined,
        }
      : { verb: nra!.verb ?? '', group: '', resource: '', path: nra!.path ?? '' };
    // An allowance carries the authorizer's own reason: the binding that allows it, none for
    // system:masters (allowed before RBAC is asked). A denial carries none, as kube-apiserver's RBAC
    // authorizer has no opinion to give: clients (kubectl's `no`, the console's own wording of what
    // a person may not do) must not rely on a reason the real cluster never sends.
    const reason = allowedBy(rbac, subject, attrs);
    return sendJson(res, 201, {
      kind: r.kind,
      apiVersion,
      metadata: { creationTimestamp: null },
      spec,
      status: reason === undefined ? { allowed: false } : { allowed: true, ...(reason ? { reason } : {}) },
    });
  }
  // SelfSubjectRulesReview: the RBAC rules that apply in the namespace, as the authorizer's rule
  // resolver lists them (system:masters' blanket permission is no rule, so not among them).
  const namespace = String(spec.namespace ?? '');
  if (!namespace) return sendStatus(res, 400, 'BadRequest', 'no namespace on request');
  const rules = rulesFor(rbac, user, namespace);
  return sendJson(res, 201, {
    kind: r.kind,
    apiVersion,
    metadata: { creationTimestamp: null },
    spec,
    status: {
      resourceRules: rules
        .filter((x) => x.resources?.length)
        .map((x) => ({
          verbs: x.verbs ?? [],
          ...(x.apiGroups?.length ? { apiGroups: x.apiGroups } : {}),
          resources: x.resources,
          ...(x.resourceNames?.length ? { resourceNames: x.resourceNames } : {}),
        })),
      nonResourceRules: rules
        .filter((x) => x.nonResourceURLs?.length)
        .map((x) => ({ verbs: x.verbs ?? [], nonResourceURLs: x.nonResourceURLs })),
      incomplete: false,
    },
  });
}
