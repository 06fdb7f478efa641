// POST /api/install: plans again (never trusting a plan the browser holds) and applies it:
// Namespace, OperatorGroup, Subscription in order, undoing this request's writes if a later one
// fails. 201 with what was created; 200 when the same install is already there (re-sending is
// harmless); 409 with the blockers when the cluster's state conflicts; 400 for an install mode
// the version does not support. Every cluster call is sent again after transient failures as
// lib/k8s/retry.ts allows; one that still fails is named in the error (the step, with the
// Kubernetes code and reason), after what was created has been removed.
import { ApiError, readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { applyPlan, InstallBody } from '@/lib/server/install';
import { planInstallAsPerson } from '@/lib/server/install-plan';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req) => {
  const { client } = writeClient(req);
  const body = await readJson(req, InstallBody);
  const plan = await planInstallAsPerson(req, client, body);
  const first = plan.blockers[0];
  if (first) {
    const code = first.code === 'unsupportedInstallMode' ? 400 : first.code === 'forbidden' ? 403 : 409;
    const reason = code === 400 ? 'BadRequest' : code === 403 ? 'Forbidden' : 'Conflict';
    throw new ApiError(code, reason, plan.blockers.map((b) => b.message).join('; '), {
      blockers: plan.blockers,
      warnings: plan.warnings,
    });
  }
  const subscription = plan.objects.find((o) => o.kind === 'Subscription')!;
  const ref = { namespace: subscription.namespace, name: subscription.name };
  if (plan.alreadyInstalled)
    return Response.json(
      {
        alreadyInstalled: true,
        subscription: ref,
        created: [],
        reused: plan.objects.map((o) => ({ kind: o.kind, name: o.name, namespace: o.namespace })),
        warnings: plan.warnings,
      },
      { status: 200 },
    );
  const result = await applyPlan(client, plan);
  return Response.json(
    { alreadyInstalled: false, subscription: ref, ...result, approval: plan.approval, warnings: plan.warnings },
    { status: 201 },
  );
});
