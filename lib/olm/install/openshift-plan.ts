// What OpenShift's install options add to an install plan (rules in ./openshift-options.ts): the
// token variables in the Subscription's spec.config.env with Manual approval, the monitoring label
// on the namespace the install creates with Prometheus' Role and RoleBinding, and the plugins
// added to Console `cluster`'s spec.plugins — that change planned last, so a failure of any
// earlier write leaves the Console untouched and nothing needs undoing there.
import type { EnvVar, SubscriptionConfig } from '../resources/subscription-config';
import {
  missingTokenValues,
  openShiftOptions,
  pluginsAfter,
  tokenAuthEnv,
  type CsvOpenShiftOptions,
  type OpenShiftClusterFacts,
  type OpenShiftOptionsView,
  type TokenAuthProvider,
} from './openshift-options';
import { CLUSTER_MONITORING_LABEL, monitoringPlanWords, prometheusRbac } from './cluster-monitoring';

/** The person's choices, as the install request carries them. */
export interface OpenShiftChoices {
  tokenAuth?: { provider: TokenAuthProvider; values: Record<string, string> };
  enablePlugins?: string[];
  clusterMonitoring?: boolean;
}

export interface OpenShiftPlanInput {
  choices: OpenShiftChoices;
  /** Undefined: not an OpenShift cluster. */
  cluster?: OpenShiftClusterFacts;
  csv: CsvOpenShiftOptions;
  /** False when the version's CSV could not be read: its options are then not known, not absent. */
  csvKnown?: boolean;
  catalogName: string;
  namespace: string;
  createsNamespace: boolean;
  config?: SubscriptionConfig;
  /** Why the person may not create the monitoring Role and RoleBinding, if they may not. */
  monitoringRbacDenied?: string;
}

export type OpenShiftNoticeCode =
  | 'tokenAuth'
  | 'tokenAuthForcesManual'
  | 'tokenAuthMissing'
  | 'tokenAuthEnvReplaced'
  | 'untrustedPlugin'
  | 'pluginsEnabled'
  | 'clusterMonitoring'
  | 'optionNotApplicable'
  | 'forbidden';

export interface OpenShiftPlanPart {
  view?: OpenShiftOptionsView;
  /** The Subscription's config with the token variables in it. */
  config?: SubscriptionConfig;
  forceManual: boolean;
  namespaceLabels: Record<string, string>;
  /** Created right after the Namespace. */
  afterNamespace: { kind: 'Role' | 'RoleBinding'; name: string; namespace: string; object: Record<string, unknown> }[];
  /** Console `cluster` with the plugins after the change, patched after everything else. */
  consolePlugins?: { before: string[]; after: string[] };
  warnings: { code: OpenShiftNoticeCode; message: string }[];
  blockers: { code: OpenShiftNoticeCode; message: string }[];
}

export function planOpenShiftOptions(i: OpenShiftPlanInput): OpenShiftPlanPart {
  const part: OpenShiftPlanPart = {
    forceManual: false,
    namespaceLabels: {},
    afterNamespace: [],
    warnings: [],
    blockers: [],
    ...(i.config ? { config: i.config } : {}),
  };
  const c = i.choices;
  if (!i.cluster) {
    if (c.tokenAuth || c.enablePlugins?.length || c.clusterMonitoring)
      part.blockers.push({
        code: 'optionNotApplicable',
        message:
          'cloud token authentication, console plugins and cluster monitoring are OpenShift install options, and this cluster is not OpenShift',
      });
    return part;
  }
  const view = openShiftOptions({
    csv: i.csv,
    cluster: i.cluster,
    catalogName: i.catalogName,
    namespace: i.namespace,
    createsNamespace: i.createsNamespace,
    ...(i.csvKnown === false ? { csvKnown: false } : {}),
  });
  part.view = view;

  // Cloud tokens: OpenShift's console makes the Subscription Manual whenever it offers them, so a
  // person approves each upgrade after checking the role still grants what the new version needs.
  const t = view.tokenAuth;
  if (t.offered && t.provider) {
    part.forceManual = true;
    if (c.tokenAuth && c.tokenAuth.provider !== t.provider) {
      part.blockers.push({
        code: 'optionNotApplicable',
        message: `the cluster uses ${t.provider} short-lived tokens, not ${c.tokenAuth.provider}`,
      });
    } else {
      const values = c.tokenAuth?.values ?? {};
      const missing = missingTokenValues(t.provider, values);
      if (missing.length)
        part.warnings.push({
          code: 'tokenAuthMissing',
          message: `${t.reason}: without ${missing.join(', ')} the operator cannot reach the cloud API`,
        });
      const env = tokenAuthEnv(t.provider, values);
      if (env.length) {
        const names = env.map((e) => e.name);
        const own: EnvVar[] = i.config?.env ?? [];
        const replaced = own.filter((e) => names.includes(e.name)).map((e) => e.name);
        if (replaced.length)
          part.warnings.push({
            code: 'tokenAuthEnvReplaced',
            message: `the pod configuration's ${replaced.join(', ')} is replaced by the cloud token value`,
          });
        part.config = { ...(i.config ?? {}), env: [...own.filter((e) => !names.includes(e.name)), ...env] };
        part.warnings.push({
          code: 'tokenAuth',
          message: `${env.map((e) => e.name).join(', ')} ${env.length === 1 ? 'goes' : 'go'} into the Subscription's spec.config.env: OLM passes them to the operator, which asks the cloud for short-lived tokens with them`,
        });
      }
    }
  } else if (c.tokenAuth) {
    part.blockers.push({
      code: 'optionNotApplicable',
      message: `cloud token authentication does not apply: ${t.reason}`,
    });
  }

  // Console plugins: the names added to Console cluster's spec.plugins, what is there kept.
  const wanted = [...new Set(c.enablePlugins ?? [])];
  if (wanted.length) {
    const p = view.plugins;
    const unknown = wanted.filter((n) => !p.names.includes(n));
    if (!p.offered)
      part.blockers.push({
        code: p.reason?.startsWith('you may not') ? 'forbidden' : 'optionNotApplicable',
        message: `console plugins cannot be enabled: ${p.reason}`,
      });
    else if (unknown.length)
      part.blockers.push({
        code: 'optionNotApplicable',
        message: `this version declares no console plugin named ${unknown.join(', ')} (it declares ${p.names.join(', ')})`,
      });
    else {
      const before = i.cluster.console.state === 'read' ? (i.cluster.console.object.spec?.plugins ?? []) : [];
      const after = pluginsAfter(before, wanted);
      if (after.length !== before.length) {
        part.consolePlugins = { before, after };
        part.warnings.push({
          code: 'pluginsEnabled',
          message: `Console cluster's spec.plugins gets ${wanted.filter((n) => !before.includes(n)).join(', ')}, written after the Subscription: the console loads the plugin once the operator serves it, and people reload the page to see it`,
        });
      }
      if (!p.trusted)
        part.warnings.push({
          code: 'untrustedPlugin',
          message: `${i.catalogName} is not Red Hat's redhat-operators catalog: a console plugin runs its code inside the console with each viewer's rights, so enable it only if you trust its author`,
        });
    }
  }

  // Cluster monitoring: the label on the namespace the install creates, and Prometheus let in.
  if (c.clusterMonitoring) {
    if (!view.monitoring.offered)
      part.blockers.push({
        code: 'optionNotApplicable',
        message: `cluster monitoring cannot be enabled: ${view.monitoring.reason}`,
      });
    else {
      part.namespaceLabels[CLUSTER_MONITORING_LABEL] = 'true';
      const rbac = prometheusRbac(i.namespace);
      part.afterNamespace.push(
        { kind: 'Role', name: rbac.name, namespace: i.namespace, object: rbac.role },
        { kind: 'RoleBinding', name: rbac.name, namespace: i.namespace, object: rbac.binding },
      );
      part.warnings.push({ code: 'clusterMonitoring', message: monitoringPlanWords(i.namespace) });
      if (i.monitoringRbacDenied)
        part.blockers.push({
          code: 'forbidden',
          message: `you may not create the Role and RoleBinding cluster monitoring needs in ${i.namespace}: ${i.monitoringRbacDenied}`,
        });
    }
  }
  return part;
}
