'use client';
// The plan of the wizard's choices, and the exact body it planned (what Install then sends, so
// the person installs what the preview showed). OpenShift's options are known only from a plan,
// and their fields belong in the next request: when a plan offers options the request did not
// carry yet, the same choices are planned once more with them, inside one query, so no state is
// set while rendering.
import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { apiWrite } from '@/lib/client/api';
import type { OpenShiftOptionsView } from '@/lib/olm/install/openshift-options';
import type { InstallPlanResult } from '@/lib/olm/install/plan';
import { installRequest, type InstallChoices, type InstallRequestBody } from './install-request';

export interface PlannedInstall {
  plan: InstallPlanResult;
  body: InstallRequestBody;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function useInstallPlan(choices: InstallChoices | undefined) {
  // The last options seen, read only by the query function: a fact about the cluster and the
  // version that rarely changes between choices, so most plans need one request.
  const lastView = useRef<OpenShiftOptionsView | undefined>(undefined);
  const valid = !!choices && !!installRequest(choices);
  return useQuery({
    queryKey: ['install-plan', choices],
    queryFn: async (): Promise<PlannedInstall> => {
      const post = (body: InstallRequestBody) => apiWrite<InstallPlanResult>('/api/install/plan', 'POST', body);
      let body = installRequest(choices!, lastView.current)!;
      let plan = await post(body);
      const settled = installRequest(choices!, plan.openshift)!;
      if (!same(settled, body)) {
        body = settled;
        plan = await post(body);
      }
      lastView.current = plan.openshift;
      return { plan, body };
    },
    enabled: valid,
    placeholderData: (prev) => prev,
    staleTime: 0,
  });
}
