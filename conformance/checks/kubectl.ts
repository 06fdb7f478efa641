// The commands cluster admins type, run with the real kubectl against both clusters as admin:
// every `create` generator (which kubectl sends in protobuf), apply, patch, label, annotate,
// scale, set image, rollout status/history/undo, auth can-i as another user, auth reconcile,
// delete with cascade, get in its output formats, describe, explain, api-resources and events.
// Each check works in its own namespace. What kubectl prints is compared after the parts that
// differ between any two clusters are set aside: ages, generated name suffixes and hashes, uids,
// and the column padding that follows from them.
import { execFile } from 'node:child_process';
import type { Check } from '../run-checks';
import type { Target } from '../target';

interface Step {
  command: string;
  code: number;
  out: string[];
}

/** Pod-template hashes (8–10 characters of Kubernetes' name alphabet), pod suffixes, uids, ages. */
export function tidy(text: string): string[] {
  return text
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<uid>')
    .replace(/([-=])[bcdfghjklmnpqrstvwxz2456789]{8,10}\b/g, '$1<hash>')
    .replace(/-[bcdfghjklmnpqrstvwxz2456789]{5}\b/g, '-<suffix>')
    .replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z\b/g, '<time>')
    .replace(/\b[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}\b/g, '<time>')
    .replace(/\b(<invalid>|\d+(ms|s|m|h|d|y)(\d+(s|m|h))?)(?=\s|$)/g, '<age>')
    .split('\n')
    .map((l) => /^\s*/.exec(l)![0] + l.trim().replace(/\s+/g, ' '))
    .map((l) => l.trimEnd())
    .filter(Boolean);
}

function kubectl(t: Target, args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      'kubectl',
      ['--kubeconfig', t.kubeconfig, ...args],
      { timeout: 90_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

/** Runs commands in order, each as a person would type it (`$NS` is the check's namespace). */
function session(t: Target, ns: string) {
  const steps: Step[] = [];
  const sh = async (line: string, stdin?: string, keep: (out: string) => string[] = tidy) => {
    const args = line
      .replaceAll('$NS', ns)
      .match(/(?:[^\s']+|'[^']*')+/g)!
      .map((a) => a.replace(/'([^']*)'/g, '$1'));
    const r = await kubectl(t, args, stdin);
    steps.push({ command: line, code: r.code, out: keep(r.stdout + r.stderr) });
    return r.stdout;
  };
  return { steps, sh };
}

/** An object's JSON less what only one cluster writes: status, and the fields its allocators set. */
function objectFacts(text: string): string[] {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return tidy(text);
  }
  const { status: _status, metadata, ...rest } = o;
  void _status;
  const m = (metadata ?? {}) as Record<string, unknown>;
  const spec = rest.spec as Record<string, unknown> | undefined;
  // A Service's address is the allocator's pick from the range, different on any two clusters.
  if (spec?.clusterIP && spec.clusterIP !== 'None') spec.clusterIP = '<allocated>';
  if (Array.isArray(spec?.clusterIPs)) spec.clusterIPs = spec.clusterIPs.map(() => '<allocated>');
  const facts = { ...rest, metadata: { name: m.name, labels: m.labels, annotations: m.annotations } };
  return tidy(JSON.stringify(facts, null, 1));
}

const check = (
  id: string,
  ns: string,
  body: (s: ReturnType<typeof session>) => Promise<void>,
  clusterScoped: string[] = [],
): Check => ({
  id: `kubectl/${id}`,
  // Run last, one at a time: they make cluster-scoped objects (a PriorityClass, ClusterRoles) that
  // other checks list, and beside the OLM scenarios the sandbox's answers to kubectl failed.
  alone: true,
  run: async (t) => {
    const s = session(t, ns);
    await kubectl(t, ['create', 'namespace', ns]);
    await body(s);
    if (clusterScoped.length) await kubectl(t, ['delete', ...clusterScoped, '--ignore-not-found', '--wait=false']);
    return s.steps;
  },
});

export const kubectlChecks: Check[] = [
  check(
    'every create generator, read back',
    'kc-create',
    async (s) => {
      await s.sh('create role reader -n $NS --verb=get,list --resource=pods,configmaps');
      await s.sh('create rolebinding reader-bob -n $NS --role=reader --user=bob');
      await s.sh('create clusterrole kc-node-reader --verb=get --resource=nodes --resource-name=n1');
      await s.sh('create clusterrolebinding kc-node-readers --clusterrole=kc-node-reader --group=devs');
      await s.sh('create deployment web -n $NS --image=nginx:1.27 --replicas=2 --port=80');
      await s.sh('create service clusterip web -n $NS --tcp=80:8080');
      await s.sh('create job once -n $NS --image=busybox -- echo hi');
      await s.sh("create cronjob nightly -n $NS --image=busybox --schedule='0 3 * * *' -- true");
      await s.sh('create secret generic creds -n $NS --from-literal=user=admin');
      await s.sh('create configmap settings -n $NS --from-literal=mode=fast');
      await s.sh('create serviceaccount robot -n $NS');
      await s.sh('create ingress site -n $NS --class=nginx --rule=example.com/=web:80');
      await s.sh('create priorityclass kc-batch --value=1000 --description=batch');
      for (const what of [
        'role reader',
        'rolebinding reader-bob',
        'clusterrole kc-node-reader',
        'clusterrolebinding kc-node-readers',
        'deployment web',
        'service web',
        'job once',
        'cronjob nightly',
        'secret creds',
        'configmap settings',
        'serviceaccount robot',
        'ingress site',
        'priorityclass kc-batch',
      ])
        await s.sh(`get ${what} -n $NS -o json`, undefined, objectFacts);
    },
    ['clusterrole/kc-node-reader', 'clusterrolebinding/kc-node-readers', 'priorityclass/kc-batch'],
  ),
  check('apply, patch, label and annotate', 'kc-apply', async (s) => {
    const cm = (mode: string) =>
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'settings', namespace: 'kc-apply' },
        data: { mode },
      });
    await s.sh('apply -f -', cm('fast'));
    await s.sh('apply -f -', cm('fast'));
    await s.sh('apply -f -', cm('slow'));
    await s.sh('patch configmap settings -n $NS --type=merge -p {"data":{"extra":"1"}}');
    await s.sh('patch configmap settings -n $NS --type=json -p [{"op":"remove","path":"/data/extra"}]');
    await s.sh('label configmap settings -n $NS tier=backend');
    await s.sh('label configmap settings -n $NS tier=frontend');
    await s.sh('label configmap settings -n $NS tier=frontend --overwrite');
    await s.sh('annotate configmap settings -n $NS owner=team1');
    await s.sh("get configmap settings -n $NS -o jsonpath='{.metadata.labels} {.data}'");
    await s.sh('create deployment api -n $NS --image=nginx:1.27');
    await s.sh(
      'patch deployment api -n $NS -p {"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.28"}]}}}}',
    );
    await s.sh("get deployment api -n $NS -o jsonpath='{.spec.template.spec.containers[*].image}'");
  }),
  check('scale, set image, rollout status, history and undo', 'kc-rollout', async (s) => {
    await s.sh('create deployment roll -n $NS --image=nginx:1.27 --replicas=2');
    await s.sh('rollout status deployment/roll -n $NS --timeout=60s', undefined, (o) => tidy(o).slice(-1));
    await s.sh('set image deployment/roll nginx=nginx:1.28 -n $NS');
    await s.sh('rollout status deployment/roll -n $NS --timeout=60s', undefined, (o) => tidy(o).slice(-1));
    await s.sh('rollout history deployment/roll -n $NS');
    await s.sh('rollout undo deployment/roll -n $NS');
    await s.sh('rollout status deployment/roll -n $NS --timeout=60s', undefined, (o) => tidy(o).slice(-1));
    await s.sh('rollout history deployment/roll -n $NS');
    await s.sh("get deployment roll -n $NS -o jsonpath='{.spec.template.spec.containers[0].image}'");
    await s.sh('scale deployment/roll --replicas=3 -n $NS');
    await s.sh('rollout status deployment/roll -n $NS --timeout=60s', undefined, (o) => tidy(o).slice(-1));
    await s.sh('get deployment roll -n $NS');
    await s.sh('get replicasets -n $NS -o wide --sort-by=.metadata.annotations.deployment\\.kubernetes\\.io/revision');
    await s.sh('get pods -n $NS -l app=roll --no-headers', undefined, (o) => [`${tidy(o).length} pods`]);
  }),
  check('jobs complete', 'kc-jobs', async (s) => {
    await s.sh('create job once -n $NS --image=busybox -- echo hi');
    await s.sh('wait --for=condition=complete job/once -n $NS --timeout=60s');
    await s.sh('get job once -n $NS');
    await s.sh("get pods -n $NS -l job-name=once -o jsonpath='{.items[*].status.phase}'");
  }),
  check('auth can-i as another user, auth reconcile', 'kc-auth', async (s) => {
    await s.sh('auth can-i list pods -n $NS --as=bob');
    await s.sh('auth can-i create deployments -n $NS --as=bob');
    await s.sh('auth can-i create deployments -n team1 --as=alice');
    await s.sh('auth can-i patch deployments --subresource=scale -n team1 --as=alice');
    const rbac = JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'Role',
          metadata: { name: 'deployer', namespace: 'kc-auth' },
          rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'patch'] }],
        },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: 'deployer-bob', namespace: 'kc-auth' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'deployer' },
          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
        },
      ],
    });
    await s.sh('auth reconcile -f -', rbac);
    await s.sh('auth reconcile -f -', rbac);
    await s.sh('auth can-i patch deployments -n $NS --as=bob');
    await s.sh('get role deployer -n $NS -o json', undefined, objectFacts);
  }),
  check('delete with cascade', 'kc-delete', async (s) => {
    await s.sh('create deployment fg -n $NS --image=nginx:1.27');
    await s.sh('rollout status deployment/fg -n $NS --timeout=60s', undefined, (o) => tidy(o).slice(-1));
    await s.sh('delete deployment fg -n $NS --cascade=foreground --timeout=60s');
    await s.sh('get replicasets,pods -n $NS -l app=fg -o name');
    await s.sh('create deployment kept -n $NS --image=nginx:1.27');
    await s.sh('rollout status deployment/kept -n $NS --timeout=60s', undefined, (o) => tidy(o).slice(-1));
    await s.sh('delete deployment kept -n $NS --cascade=orphan');
    await s.sh('get replicasets -n $NS -l app=kept --no-headers', undefined, (o) => [`${tidy(o).length} left`]);
  }),
  check('get in every output, describe and events', 'kc-get', async (s) => {
    await s.sh('create deployment show -n $NS --image=nginx:1.27 --port=80');
    await s.sh('rollout status deployment/show -n $NS --timeout=60s', undefined, (o) => tidy(o).slice(-1));
    await s.sh('get deployment show -n $NS -o wide');
    await s.sh('get deployment show -n $NS -o json', undefined, objectFacts);
    await s.sh('get deployment show -n $NS -o yaml', undefined, (o) =>
      tidy(o).filter((l) => !/^\s*(resourceVersion|generation):/.test(l)),
    );
    await s.sh("get deployment show -n $NS -o jsonpath='{.spec.replicas} {.status.readyReplicas}'");
    await s.sh('get all -n $NS');
    await s.sh('describe deployment show -n $NS');
    await s.sh('events -n $NS --types=Normal', undefined, (o) => [`${Math.max(0, tidy(o).length - 1)} events`]);
  }),
  check('explain and api-resources', 'kc-discovery', async (s) => {
    for (const what of ['deployment.spec.replicas', 'job.spec.completions', 'cronjob.spec.schedule', 'ingress.spec'])
      await s.sh(`explain ${what}`);
    for (const group of ['apps', 'batch', 'rbac.authorization.k8s.io'])
      await s.sh(`api-resources --api-group=${group}`);
    await s.sh('api-resources --api-group=networking.k8s.io', undefined, (o) =>
      tidy(o).filter((l) => /^(NAME|ingresses|networkpolicies) /.test(l)),
    );
  }),
];
