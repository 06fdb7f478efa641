// kwok's pod stages for the real cluster: kwok's own default ones (kustomize/stage/pod/fast of the
// module cluster/kwok pins), with OLM's bundle unpack pods left out of the two that play a pod's
// life. Unchanged, `pod-ready` makes every pod Running at once and `pod-complete` then makes any
// pod a Job owns Succeeded, before anything ran: OLM's unpack Job would complete with its ConfigMap
// still empty. Those pods are scripts/cluster-unpack.ts's, which does what a kubelet would and
// decides how they end. `pod-delete` (finishing a deleted pod) stays for every pod.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';

/** The label OLM's catalog operator puts on an unpack Job's pods (BundleUnpackRefLabel, bundle_unpacker.go). */
export const UNPACK_POD_LABEL = 'operatorframework.io/bundle-unpack-ref';

type Stage = {
  kind: string;
  metadata: { name: string };
  spec: { selector: { matchExpressions: { key: string; operator: string; values?: string[] }[] } };
};

/** The kwok release cluster/kwok/go.mod pins, and its module folder (downloaded when missing). */
function kwokModuleDir(root: string): string {
  const mod = join(root, 'cluster', 'kwok');
  const m = /^\s*sigs\.k8s\.io\/kwok (v\S+)/m.exec(readFileSync(join(mod, 'go.mod'), 'utf8'));
  if (!m) throw new Error('cluster/kwok/go.mod does not pin sigs.k8s.io/kwok');
  const r = spawnSync('go', ['mod', 'download', '-json', `sigs.k8s.io/kwok@${m[1]}`], {
    cwd: mod,
    env: { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod' },
  });
  if (r.status !== 0) throw new Error(`go mod download sigs.k8s.io/kwok@${m[1]} failed: ${r.stderr.toString()}`);
  return (JSON.parse(r.stdout.toString()) as { Dir: string }).Dir;
}

/** kwok's default pod stages with unpack pods left out of all but `pod-delete`, as kwok's YAML. */
export function kwokPodStages(root: string): string {
  const dir = join(kwokModuleDir(root), 'kustomize', 'stage', 'pod', 'fast');
  return ['pod-ready', 'pod-complete', 'pod-delete']
    .map((name) => {
      const stage = yaml.load(readFileSync(join(dir, `${name}.yaml`), 'utf8')) as Stage;
      if (stage.kind !== 'Stage' || stage.metadata.name !== name)
        throw new Error(`kwok's ${name}.yaml is not the Stage ${name}`);
      if (name !== 'pod-delete')
        stage.spec.selector.matchExpressions.push({
          key: `.metadata.labels["${UNPACK_POD_LABEL}"]`,
          operator: 'DoesNotExist',
        });
      return yaml.dump(stage, { lineWidth: -1 });
    })
    .join('---\n');
}

/** Writes the stages for kwok's `--config` and answers the file's path. */
export function writeKwokConfig(root: string, file: string): string {
  writeFileSync(file, kwokPodStages(root));
  return file;
}
