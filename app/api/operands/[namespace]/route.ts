// POST /api/operands/<namespace> { csv, object }: creates an instance of an API the operator's
// CSV owns (its initialization resource, an example, or the create form's object), as the person,
// with a dry run first. Only kinds the CSV owns can be created here, so this is not a
// general-purpose write. Kubernetes' errors (a 422's reason and causes) are passed on as given.
// The create form sends `operatorNamespace` when the operand goes to another namespace the
// operator watches: the CSV is read where the operator runs (a copy may be missing or unreadable
// in the target), and a namespace the operator does not watch is refused, as nothing there would
// reconcile it. An instance of a cluster-scoped API (the scope from the cluster's discovery) is
// created without a namespace; the path's namespace is then only where its CSV is read.
import { z } from 'zod';
import { watchedNamespaces, watches } from '@/lib/olm/operand-form/namespaces';
import { CSV_TYPE, targetNamespacesOf, type ClusterServiceVersion } from '@/lib/olm/resources/cluster-service-version';
import { ApiError, dnsLabel, dnsSubdomain, readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { operandTypes } from '@/lib/server/api-scope';
import { createOperand } from '@/lib/server/operand-form';
import { operatorCsvFor } from '@/lib/server/operands';
import { parseParams } from '@/lib/server/package-lookup';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Body = z.strictObject({
  csv: dnsSubdomain,
  operatorNamespace: dnsLabel.optional(),
  object: z
    .object({
      apiVersion: z.string().regex(/^[a-z0-9.-]+\/[a-z0-9]+$/, 'must be group/version'),
      kind: z.string().min(1).max(63),
      metadata: z
        .object({
          name: dnsSubdomain.optional(),
          generateName: z.string().max(200).optional(),
          namespace: dnsLabel.optional(),
        })
        .passthrough(),
    })
    .passthrough(),
});

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace } = parseParams(z.object({ namespace: dnsLabel }), await ctx.params);
  const { client } = writeClient(req);
  const body = await readJson(req, Body);
  const [group, version] = body.object.apiVersion.split('/') as [string, string];
  const csv = body.operatorNamespace
    ? await operatorCsvFor(client, body.operatorNamespace, body.csv, namespace)
    : await client.get<ClusterServiceVersion>(CSV_TYPE, body.csv, namespace);
  const owned = (csv.spec.customresourcedefinitions?.owned ?? []).find(
    (c) => c.kind === body.object.kind && c.name.slice(c.name.indexOf('.') + 1) === group && c.version === version,
  );
  if (!owned)
    throw new ApiError(
      400,
      'BadRequest',
      `${body.csv} does not own ${body.object.kind} in ${body.object.apiVersion}; only the operator's own APIs can be created here`,
    );
  const type = await operandTypes(client)({
    group,
    version,
    plural: owned.name.slice(0, owned.name.indexOf('.')),
    kind: body.object.kind,
  });
  if (!type.namespaced) {
    const metadata = { ...body.object.metadata };
    delete metadata.namespace;
    return Response.json(await createOperand(client, type, { ...body.object, metadata }, undefined), { status: 201 });
  }
  if (body.operatorNamespace) assertWatches(csv, body.operatorNamespace, body.csv, namespace);
  const created = await createOperand(
    client,
    type,
    { ...body.object, metadata: { ...body.object.metadata, namespace } },
    namespace,
  );
  return Response.json(created, { status: 201 });
});

function assertWatches(csv: ClusterServiceVersion, operatorNamespace: string, name: string, target: string): void {
  const home = csv.metadata?.namespace ?? operatorNamespace;
  if (!watches(watchedNamespaces(targetNamespacesOf(csv), home), target)) {
    throw new ApiError(
      400,
      'BadRequest',
      `${name} does not watch the namespace ${target}, so it would never act on an instance there; choose one of the namespaces it watches`,
    );
  }
}
