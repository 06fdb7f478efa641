// The authorization and authentication reviews (SelfSubjectAccessReview, SubjectAccessReview,
// SelfSubjectRulesReview, SelfSubjectReview): created, never stored, answered by the sandbox's
// RBAC authorizer as kube-apiserver answers them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
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
      subject = {
        name: String(spec.user ?? ''),
        groups: [...((spec.groups as string[] | undefined) ?? []), 'system:authenticated'],
      };
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
    const allowed = authorize(rbac, subject, attrs);
    return sendJson(res, 201, {
      kind: r.kind,
      apiVersion,
      metadata: { creationTimestamp: null },
      spec,
      status: allowed
        ? { allowed: true, reason: 'allowed by the sandbox RBAC rules' }
        : { allowed: false, reason: forbiddenMessage(subject, attrs) },
    });
  }
  // SelfSubjectRulesReview
  const namespace = String(spec.namespace ?? '');
  if (!namespace)
    return sendStatus(
      res,
      422,
      'Invalid',
      'SelfSubjectRulesReview.authorization.k8s.io "" is invalid: spec.namespace: Required value: no namespace on request',
    );
  const rules = user.groups.includes('system:masters')
    ? [
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
        { verbs: ['*'], nonResourceURLs: ['*'] },
      ]
    : rulesFor(rbac, user, namespace);
  return sendJson(res, 201, {
    kind: r.kind,
    apiVersion,
    metadata: { creationTimestamp: null },
    spec,
    status: {
      resourceRules: rules
        .filter((x) => !x.nonResourceURLs)
        .map((x) => ({
          verbs: x.verbs ?? [],
          apiGroups: x.apiGroups ?? [],
          resources: x.resources ?? [],
          ...(x.resourceNames ? { resourceNames: x.resourceNames } : {}),
        })),
      nonResourceRules: rules
        .filter((x) => x.nonResourceURLs)
        .map((x) => ({ verbs: x.verbs ?? [], nonResourceURLs: x.nonResourceURLs ?? [] })),
      incomplete: false,
    },
  });
}
