// One install planned as the person: the package found where they may see it, the cluster's facts
// read with their identity, and lib/olm's planner. The dry run and the install itself both plan
// here, so what the wizard previews is exactly what POST /api/install checks again before writing.
import type { KubeClient } from '../k8s/client';
import { planInstall } from '../olm/install/plan';
import type { InstallPlanResult } from '../olm/install/plan-types';
import type { InstallBody } from './install';
import { gatherInstallFacts } from './install-facts';
import { step } from './install-step';
import { findPackage } from './package-lookup';

export async function planInstallAsPerson(
  req: Request,
  client: KubeClient,
  body: InstallBody,
): Promise<InstallPlanResult> {
  const { lookup } = await step(
    `finding package ${body.package} in catalog ${body.catalog.namespace}/${body.catalog.name}`,
    () =>
      findPackage(
        req,
        { namespace: body.catalog.namespace, catalog: body.catalog.name, package: body.package },
        body.viewerNamespace ?? body.namespace,
      ),
  );
  return planInstall(await gatherInstallFacts(client, lookup, body));
}
