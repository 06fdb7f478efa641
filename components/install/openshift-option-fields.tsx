'use client';
// OpenShift's install options in the wizard: cloud token values, console plugins and cluster
// monitoring, each shown as fields only when the plan says it applies, otherwise as one line
// saying why not. Which apply is decided by lib/olm/install/openshift-options.ts on the server.
import type { InstallPlanResult } from '@/lib/olm/install/plan';
import type { OpenShiftOptionsView } from '@/lib/olm/install/openshift-options';

export interface OpenShiftChoice {
  tokenValues: Record<string, string>;
  /** Plugins the person switched; untouched ones follow the default (on for a trusted catalog). */
  plugins: Record<string, boolean>;
  monitoring: boolean;
}

export const emptyOpenShiftChoice: OpenShiftChoice = { tokenValues: {}, plugins: {}, monitoring: false };

const pluginOn = (v: OpenShiftOptionsView, c: OpenShiftChoice, name: string) => c.plugins[name] ?? v.plugins.trusted;

/** The request fields for the choice, given what the last plan offered. */
export function openShiftBody(v: OpenShiftOptionsView | undefined, c: OpenShiftChoice): Record<string, unknown> {
  if (!v) return {};
  const out: Record<string, unknown> = {};
  const t = v.tokenAuth;
  if (t.offered && t.provider) {
    const values = Object.fromEntries(
      t.fields.flatMap((f) => (c.tokenValues[f.key]?.trim() ? [[f.key, c.tokenValues[f.key]!.trim()]] : [])),
    );
    // Sent only once every required value is there: until then the plan says what is missing.
    if (t.fields.every((f) => !f.required || values[f.key])) out.tokenAuth = { [t.provider.toLowerCase()]: values };
  }
  if (v.plugins.offered) {
    const enable = v.plugins.names.filter((n) => !v.plugins.alreadyEnabled.includes(n) && pluginOn(v, c, n));
    if (enable.length) out.enablePlugins = enable;
  }
  if (v.monitoring.offered && c.monitoring) out.clusterMonitoring = true;
  return out;
}

export function OpenShiftOptionFields({
  plan,
  value,
  onChange,
}: {
  plan?: InstallPlanResult;
  value: OpenShiftChoice;
  onChange: (v: OpenShiftChoice) => void;
}) {
  const v = plan?.openshift;
  if (!v) return null;
  const t = v.tokenAuth;
  const notes: string[] = [];
  if (!t.offered) notes.push(`Cloud token authentication: ${t.reason}.`);
  if (!v.plugins.offered) notes.push(`Console plugins: ${v.plugins.reason}.`);
  if (!v.monitoring.offered) notes.push(`Cluster monitoring: ${v.monitoring.reason}.`);
  return (
    <fieldset aria-label="OpenShift options" className="space-y-3 rounded border border-slate-200 bg-white p-3 text-sm">
      <legend className="px-1 font-medium">OpenShift options</legend>
      {t.offered && t.provider && (
        <div role="group" aria-label="Cloud token authentication" className="space-y-2">
          <p className="font-medium">Cloud token authentication ({t.provider})</p>
          <p className="text-xs text-slate-600">
            This cluster gives operators short-lived cloud tokens, and this version supports them. The values go into
            the Subscription&apos;s spec.config.env, and the Subscription is made with Manual approval: check the cloud
            role still grants what each new version needs before approving it.
          </p>
          {t.fields.map((f) => (
            <label key={f.key} className="flex flex-col">
              <span>
                {f.label}
                {f.required ? '' : ' (optional)'} <code className="text-xs text-slate-500">{f.env}</code>
              </span>
              <input
                value={value.tokenValues[f.key] ?? ''}
                onChange={(e) => onChange({ ...value, tokenValues: { ...value.tokenValues, [f.key]: e.target.value } })}
                className="rounded border border-slate-300 bg-white px-2 py-1.5"
              />
            </label>
          ))}
        </div>
      )}
      {v.plugins.offered && (
        <div role="group" aria-label="Console plugins" className="space-y-1">
          <p className="font-medium">Console plugins</p>
          {v.plugins.names.map((n) => {
            const already = v.plugins.alreadyEnabled.includes(n);
            return (
              <label key={n} className="flex items-start gap-2">
                <input
                  type="checkbox"
                  className="mt-1"
                  disabled={already}
                  checked={already || pluginOn(v, value, n)}
                  onChange={(e) => onChange({ ...value, plugins: { ...value.plugins, [n]: e.target.checked } })}
                />
                <span>
                  Enable {n} in the OpenShift console{already ? ' (already enabled)' : ''}
                  <span className="block text-xs text-slate-600">
                    Added to Console cluster&apos;s spec.plugins after the Subscription is made.
                  </span>
                </span>
              </label>
            );
          })}
          {!v.plugins.trusted && (
            <p className="text-xs text-amber-900">
              This catalog is not Red Hat&apos;s redhat-operators: a plugin runs its code in the console with each
              viewer&apos;s rights. Enable it only if you trust its author.
            </p>
          )}
        </div>
      )}
      {v.monitoring.offered && (
        <label className="flex items-start gap-2">
          <input
            type="checkbox"
            className="mt-1"
            checked={value.monitoring}
            onChange={(e) => onChange({ ...value, monitoring: e.target.checked })}
          />
          <span>
            <span className="font-medium">Enable cluster monitoring for this namespace</span>
            <span className="block text-xs text-slate-600">
              The operator asks for it: the new namespace is labelled openshift.io/cluster-monitoring=true and the
              cluster&apos;s Prometheus may read its services, endpoints and pods. Its metrics then sit beside the
              platform&apos;s own: only for an operator you trust with that.
            </span>
          </span>
        </label>
      )}
      {notes.length > 0 && (
        <ul aria-label="Options that do not apply" className="list-disc space-y-1 pl-5 text-xs text-slate-600">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
