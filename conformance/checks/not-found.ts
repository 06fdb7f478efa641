// The 404s of paths the cluster has no route for, as a client reads them: status, content type
// and body. Which handler of kube-apiserver gives up decides the answer: a Status NotFound under
// /api, a built-in group or an aggregated group-version, Go's plain "404 page not found"
// elsewhere (a group nobody serves, a version or resource a CRD's group lacks); kube-openapi's
// bare 404. Clients that tell an absent API from an absent object (discovery, OCM hub detection)
// read these answers, so their shapes are compared, for an admin, for people allowed to list
// (who get the 404) and for watches.
import { call, type Answer, type Target } from '../target';
import type { Check } from '../run-checks';

const answer = (a: Answer) => ({ status: a.status, contentType: a.contentType, body: a.body });
const get = async (t: Target, path: string, user?: string) => answer(await call(t, { user, path }));

export const notFoundChecks: Check[] = [
  {
    id: 'errors/404 for an API group the cluster does not serve (plain text)',
    run: async (t) => ({
      list: await get(t, '/apis/cluster.open-cluster-management.io/v1/managedclusters'),
      namespacedGet: await get(t, '/apis/nosuch.example.com/v1/namespaces/team1/things/one'),
      watch: await get(t, '/apis/nosuch.example.com/v1/namespaces/team1/things?watch=true'),
      create: answer(
        await call(t, {
          method: 'POST',
          path: '/apis/nosuch.example.com/v1/namespaces/team1/things',
          body: { apiVersion: 'nosuch.example.com/v1', kind: 'Thing', metadata: { name: 'one' } },
        }),
      ),
      groupDiscovery: await get(t, '/apis/nosuch.example.com'),
      versionDiscovery: await get(t, '/apis/cluster.open-cluster-management.io/v1'),
      nonResource: await get(t, '/nosuch'),
    }),
  },
  {
    id: "errors/404 for a version or resource a CRD's group does not serve (plain text)",
    run: async (t) => ({
      unservedVersion: await get(t, '/apis/operators.coreos.com/v9/namespaces/team1/subscriptions'),
      unservedVersionWatch: await get(t, '/apis/operators.coreos.com/v9/subscriptions?watch=true'),
      unservedVersionDiscovery: await get(t, '/apis/operators.coreos.com/v9'),
      unknownResource: await get(t, '/apis/operators.coreos.com/v1alpha1/namespaces/team1/nosuchthings'),
      unknownResourceWatch: await get(t, '/apis/operators.coreos.com/v1alpha1/nosuchthings?watch=true'),
      aggregatedGroupUnservedVersion: await get(t, '/apis/packages.operators.coreos.com/v9/packagemanifests'),
    }),
  },
  {
    id: 'errors/404 under /api, a built-in group or an aggregated API (a Status)',
    run: async (t) => ({
      unknownResource: await get(t, '/apis/apps/v1/namespaces/team1/nosuchthings'),
      unknownResourceWatch: await get(t, '/apis/apps/v1/nosuchthings?watch=true'),
      unservedVersion: await get(t, '/apis/apps/v9/deployments'),
      unservedVersionDiscovery: await get(t, '/apis/apps/v9'),
      coreUnknownResource: await get(t, '/api/v1/namespaces/team1/nosuchthings'),
      coreUnservedVersion: await get(t, '/api/v2'),
      aggregatedUnknownResource: await get(t, '/apis/packages.operators.coreos.com/v1/namespaces/team1/nosuchthings'),
    }),
  },
  {
    // Authorization comes first: these people may list what the path names (bob views everything,
    // alice administers team1), so they are told it is not there, in the same words as an admin.
    id: 'errors/404 for an unserved API to people allowed the request',
    run: async (t) => ({
      bobUnservedVersion: await get(t, '/apis/operators.coreos.com/v9/subscriptions', 'bob'),
      bobUnservedVersionWatch: await get(t, '/apis/operators.coreos.com/v9/subscriptions?watch=1', 'bob'),
      bobBuiltinUnservedVersion: await get(t, '/apis/apps/v9/deployments', 'bob'),
      bobUnservedGroupDiscovery: await get(t, '/apis/nosuch.example.com/v1', 'bob'),
      aliceInHerNamespace: await get(t, '/apis/operators.coreos.com/v9/namespaces/team1/subscriptions', 'alice'),
      aliceWatchInHerNamespace: await get(
        t,
        '/apis/operators.coreos.com/v9/namespaces/team1/subscriptions?watch=true',
        'alice',
      ),
      // …while where she may not list, she is refused before the lookup.
      aliceClusterWide: (await call(t, { user: 'alice', path: '/apis/operators.coreos.com/v9/subscriptions' })).status,
    }),
  },
  {
    id: 'errors/404 for a subresource the kind does not have',
    run: async (t) => ({
      // The CRD handler says the object is not found, though it exists.
      crdKind: await get(t, '/apis/operators.coreos.com/v1/namespaces/olm/operatorgroups/olm-operators/nosuch'),
      builtin: await get(t, '/api/v1/namespaces/default/configmaps/anything/nosuch'),
    }),
  },
  {
    id: 'errors/404 for an OpenAPI document the cluster does not serve',
    run: async (t) => get(t, '/openapi/v3/apis/nosuch.example.com/v1'),
  },
];
