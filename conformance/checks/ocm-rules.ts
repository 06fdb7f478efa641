// The OCM checks of what a rollout's progressDeadline and a manifest's condition rules beyond plain
// CEL show a client (see ocm.ts for the group and its fleets).
import type { Check } from '../run-checks';
import { must, until, type Obj } from './olm-read';
import {
  W,
  conditions,
  configMap,
  fleetOf,
  mwrs,
  mwrsWorks,
  named,
  namespaceWithBinding,
  placement,
  work,
  workStatus,
} from './ocm-read';

export const ocmRuleChecks: Check[] = [
  {
    // A progressDeadline (OCM's rollout handler, sdk-go cluster/v1alpha1): a cluster still failed
    // when it passes times out, frees its place in flight and counts against maxFailures, so with
    // one failure allowed the rollout moves on to the next cluster; a maxFailures above the number
    // of clusters allows none (sdk-go calculateRolloutSize), so a second set stops at its first.
    // Which cluster comes first by name differs between the fleets, so the works are counted.
    id: 'ocm.mwrs.progress-deadline',
    run: async (t) => {
      const ns = 'ocm-conformance-deadline';
      await namespaceWithBinding(t, ns);
      await placement(t, ns, 'each', {});
      const failing = [configMap('x', 'ocm-conformance-no-such-namespace')];
      const strategy = (maxFailures: number) => ({
        type: 'Progressive',
        progressive: { maxConcurrency: 1, maxFailures, progressDeadline: '2s' },
      });
      const started = Date.now();
      await mwrs(t, ns, 'deadline', strategy(1), failing);
      await mwrs(t, ns, 'deadline-over', strategy(3), failing);
      const first = await until(t, 'the first cluster tried', async () => {
        const n = (await mwrsWorks(t, ns, 'deadline')).length;
        return n ? n : undefined;
      });
      // Bounded: a hub that never times the first cluster out answers with one work.
      const later = await until(
        t,
        'the second cluster tried',
        async () => {
          const n = (await mwrsWorks(t, ns, 'deadline')).length;
          return n === 2 || Date.now() - started > 12_000 ? n : undefined;
        },
        15_000,
      );
      const waited = Date.now() - started;
      // The other set's deadline has passed too; a moment more for a wrong second work to show.
      await new Promise((r) => setTimeout(r, 1000));
      const over = (await mwrsWorks(t, ns, 'deadline-over')).length;
      const set = await must(t, 'GET', `${W}/v1alpha1/namespaces/${ns}/manifestworkreplicasets/deadline`);
      for (const name of ['deadline', 'deadline-over'])
        await must(t, 'DELETE', `${W}/v1alpha1/namespaces/${ns}/manifestworkreplicasets/${name}`);
      return {
        worksAtFirst: first,
        worksAfterTheDeadline: later,
        worksWithMaxFailuresAboveTheClusters: over,
        notBeforeTheDeadline: waited >= 1500,
        conditions: conditions(set),
        summary: set.status?.summary,
      };
    },
  },
  {
    // Condition rules beyond plain CEL (ocm pkg/work/spoke/conditions/reader.go): a messageExpression
    // over `object` and `result` builds the message, an empty one falls back to `message`, one
    // that is no string puts its error there; WellKnownConditions judge a Job Complete once it has
    // finished and set nothing for a kind or condition OCM has no rule for. The wait for the Job
    // is bounded: a member that never finishes it answers with what the work says then.
    id: 'ocm.manifestwork.condition-messages',
    run: async (t) => {
      const { member, memberTarget } = fleetOf(t);
      const name = 'ocm-conformance-messages';
      const started = Date.now();
      const w = await work(
        t,
        member,
        name,
        {
          workload: {
            manifests: [
              configMap(name),
              {
                apiVersion: 'batch/v1',
                kind: 'Job',
                metadata: { name, namespace: 'default' },
                // A selector of its own: OCM's agent updates the Job with the manifest as written,
                // which the API server refuses without the selector and labels it generated.
                spec: {
                  manualSelector: true,
                  selector: { matchLabels: { job: name } },
                  template: {
                    metadata: { labels: { job: name } },
                    spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'example.com/c:1' }] },
                  },
                },
              },
            ],
          },
          manifestConfigs: [
            {
              resourceIdentifier: { resource: 'configmaps', name, namespace: 'default' },
              conditionRules: [
                {
                  condition: 'Greets',
                  type: 'CEL',
                  celExpressions: ["object.data.greeting == 'hello'"],
                  message: 'not this one',
                  messageExpression: "'it says ' + object.data.greeting + (result ? ', as hoped' : '')",
                },
                {
                  condition: 'Blank',
                  type: 'CEL',
                  celExpressions: ['false'],
                  message: 'kept',
                  messageExpression: "''",
                },
                { condition: 'Counts', type: 'CEL', celExpressions: ['true'], messageExpression: '1 + 1' },
                { condition: 'Complete', type: 'WellKnownConditions' },
              ],
            },
            {
              resourceIdentifier: { group: 'batch', resource: 'jobs', name, namespace: 'default' },
              conditionRules: [
                { condition: 'Complete', type: 'WellKnownConditions' },
                { condition: 'Ready', type: 'WellKnownConditions' },
              ],
            },
          ],
        },
        (x) =>
          JSON.stringify(x.status ?? {}).includes('Job is finished') ||
          (Date.now() - started > 20_000 && JSON.stringify(x.status ?? {}).includes('ConditionRuleEvaluated')),
      );
      await must(t, 'DELETE', `${W}/v1/namespaces/${member}/manifestworks/${name}`);
      await until(t, 'the ConfigMap removed from the member', async () => {
        const l = (await must(memberTarget, 'GET', '/api/v1/namespaces/default/configmaps')) as unknown as {
          items: Obj[];
        };
        return l.items.some((c) => c.metadata.name === name) ? undefined : true;
      });
      return named(t, workStatus(w));
    },
  },
];
