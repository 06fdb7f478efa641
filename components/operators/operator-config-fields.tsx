'use client';
// The fields of an operator's pod placement and configuration (Subscription spec.config), shared
// by the install wizard and the Subscription tab: node labels, tolerations, resources, environment,
// proxy, trusted CA bundle. Controlled: the form model and its problems come from
// lib/olm/install/operator-config-form.ts, so both places validate and write the same way.
import type { ReactNode } from 'react';
import {
  configFromForm,
  describeConfig,
  OPENSHIFT_CA_BUNDLE_KEY,
  OPENSHIFT_INJECT_CA_LABEL,
  TOLERATION_EFFECTS,
  type ConfigForm,
  type FieldProblem,
  type TolerationRow,
} from '@/lib/olm/install/operator-config-form';
import { placement, type NodeFacts } from '@/lib/olm/resources/node-placement';
import type { ClusterProxy } from '@/lib/olm/resources/subscription-config';

interface Props {
  form: ConfigForm;
  onChange: (f: ConfigForm) => void;
  problems: FieldProblem[];
  disabled?: boolean;
  openshift: boolean;
  clusterProxy?: ClusterProxy;
  /** The cluster's nodes, when the person may list them: the placement is checked against them. */
  nodes?: NodeFacts[];
  /** Prefix for element ids, so two forms never share one. */
  idPrefix: string;
}

const input = 'rounded border border-slate-300 bg-white px-2 py-1 text-sm aria-[invalid=true]:border-red-600';
const small = 'text-xs text-sky-700 underline disabled:text-slate-400';

function Problem({ id, problems, field }: { id: string; problems: FieldProblem[]; field: string }) {
  const mine = problems.filter((p) => p.field === field);
  if (!mine.length) return null;
  return (
    <span id={id} className="text-xs text-red-800">
      {mine.map((p) => p.message).join('; ')}
    </span>
  );
}

function Section({ title, hint, children }: { title: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">{title}</legend>
      {hint && <p className="text-xs text-slate-600">{hint}</p>}
      {children}
    </fieldset>
  );
}

export function OperatorConfigFields({
  form,
  onChange,
  problems,
  disabled,
  openshift,
  clusterProxy,
  nodes,
  idPrefix,
}: Props) {
  const set = (change: (f: ConfigForm) => void) => {
    const next = structuredClone(form);
    change(next);
    onChange(next);
  };
  const field = (name: string) => {
    const id = `${idPrefix}-${name.replace(/\./g, '-')}`;
    const bad = problems.some((p) => p.field === name);
    return {
      id,
      invalid: bad,
      described: bad ? `${id}-problem` : undefined,
      problem: <Problem id={`${id}-problem`} problems={problems} field={name} />,
    };
  };
  const proxyInCluster = clusterProxy && (clusterProxy.HTTP_PROXY || clusterProxy.HTTPS_PROXY || clusterProxy.NO_PROXY);
  const kept = describeConfig(form.kept);
  const config = configFromForm(form);
  // Only a placement the configuration sets is judged (the bundle's own tolerations are not known here).
  const fit =
    nodes && (config?.nodeSelector || config?.tolerations)
      ? placement(nodes, config.nodeSelector, config.tolerations)
      : undefined;

  return (
    <div className="space-y-5">
      <Section
        title="Node selector"
        hint="The operator's pods run only on nodes with every one of these labels (it replaces the bundle's selector)."
      >
        {form.nodeSelector.map((r, i) => {
          const k = field(`nodeSelector.${i}.key`);
          const v = field(`nodeSelector.${i}.value`);
          return (
            <div key={i} className="flex flex-wrap items-start gap-2">
              <div className="flex flex-col">
                <input
                  aria-label={`Node label ${i + 1} key`}
                  placeholder="node-role.kubernetes.io/infra"
                  className={input}
                  value={r.key}
                  disabled={disabled}
                  aria-invalid={k.invalid}
                  aria-describedby={k.described}
                  onChange={(e) => set((f) => void (f.nodeSelector[i]!.key = e.target.value))}
                />
                {k.problem}
              </div>
              <div className="flex flex-col">
                <input
                  aria-label={`Node label ${i + 1} value`}
                  placeholder="(any value: leave empty)"
                  className={input}
                  value={r.value}
                  disabled={disabled}
                  aria-invalid={v.invalid}
                  aria-describedby={v.described}
                  onChange={(e) => set((f) => void (f.nodeSelector[i]!.value = e.target.value))}
                />
                {v.problem}
              </div>
              <button
                type="button"
                className={small}
                disabled={disabled}
                onClick={() => set((f) => void f.nodeSelector.splice(i, 1))}
              >
                Remove node label {i + 1}
              </button>
            </div>
          );
        })}
        <button
          type="button"
          className={small}
          disabled={disabled}
          onClick={() => set((f) => void f.nodeSelector.push({ key: '', value: '' }))}
        >
          Add a node label
        </button>
      </Section>

      <Section title="Tolerations" hint="Taints the operator's pods tolerate, added to the bundle's own.">
        {form.tolerations.map((t, i) => {
          const k = field(`tolerations.${i}.key`);
          const v = field(`tolerations.${i}.value`);
          const s = field(`tolerations.${i}.seconds`);
          const upd = (change: (row: TolerationRow) => void) => set((f) => change(f.tolerations[i]!));
          return (
            <div key={i} className="flex flex-wrap items-start gap-2 rounded border border-slate-200 p-2">
              <div className="flex flex-col">
                <input
                  aria-label={`Toleration ${i + 1} key`}
                  placeholder="key"
                  className={input}
                  value={t.key}
                  disabled={disabled}
                  aria-invalid={k.invalid}
                  aria-describedby={k.described}
                  onChange={(e) => upd((r) => void (r.key = e.target.value))}
                />
                {k.problem}
              </div>
              <select
                aria-label={`Toleration ${i + 1} operator`}
                className={input}
                value={t.operator}
                disabled={disabled}
                onChange={(e) => upd((r) => void (r.operator = e.target.value as TolerationRow['operator']))}
              >
                <option value="Equal">Equal</option>
                <option value="Exists">Exists</option>
              </select>
              <div className="flex flex-col">
                <input
                  aria-label={`Toleration ${i + 1} value`}
                  placeholder="value"
                  className={input}
                  value={t.value}
                  disabled={disabled || t.operator === 'Exists'}
                  aria-invalid={v.invalid}
                  aria-describedby={v.described}
                  onChange={(e) => upd((r) => void (r.value = e.target.value))}
                />
                {v.problem}
              </div>
              <select
                aria-label={`Toleration ${i + 1} effect`}
                className={input}
                value={t.effect}
                disabled={disabled}
                onChange={(e) => upd((r) => void (r.effect = e.target.value as TolerationRow['effect']))}
              >
                {TOLERATION_EFFECTS.map((x) => (
                  <option key={x} value={x}>
                    {x || 'every effect'}
                  </option>
                ))}
              </select>
              {t.effect === 'NoExecute' && (
                <div className="flex flex-col">
                  <input
                    aria-label={`Toleration ${i + 1} seconds`}
                    placeholder="seconds (none: forever)"
                    className={`${input} w-44`}
                    value={t.seconds}
                    disabled={disabled}
                    aria-invalid={s.invalid}
                    aria-describedby={s.described}
                    onChange={(e) => upd((r) => void (r.seconds = e.target.value))}
                  />
                  {s.problem}
                </div>
              )}
              <button
                type="button"
                className={small}
                disabled={disabled}
                onClick={() => set((f) => void f.tolerations.splice(i, 1))}
              >
                Remove toleration {i + 1}
              </button>
            </div>
          );
        })}
        <button
          type="button"
          className={small}
          disabled={disabled}
          onClick={() =>
            set(
              (f) =>
                void f.tolerations.push({ key: '', operator: 'Equal', value: '', effect: 'NoSchedule', seconds: '' }),
            )
          }
        >
          Add a toleration
        </button>
      </Section>

      {fit?.problem && (
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          With this placement the operator&apos;s pods fit no node: {fit.problem}. They would stay Pending and OLM would
          keep the operator Installing; a corrected configuration is only written after OLM&apos;s 5-minute install
          timeout.
        </p>
      )}
      {fit && !fit.problem && (
        <p className="text-xs text-slate-600">
          The pods fit {fit.fits.length === 1 ? `node ${fit.fits[0]}` : `${fit.fits.length} nodes`}.
        </p>
      )}

      <Section
        title="Resources"
        hint="Given, they replace the requests and limits of every container of the operator (the bundle's are dropped)."
      >
        <div className="grid grid-cols-2 gap-2">
          {(
            [
              ['requestsCpu', 'CPU request', '100m'],
              ['limitsCpu', 'CPU limit', '500m'],
              ['requestsMemory', 'Memory request', '128Mi'],
              ['limitsMemory', 'Memory limit', '512Mi'],
            ] as const
          ).map(([name, label, example]) => {
            const fd = field(`resources.${name}`);
            return (
              <label key={name} className="flex flex-col text-sm">
                <span>{label}</span>
                <input
                  id={fd.id}
                  placeholder={example}
                  className={input}
                  value={form.resources[name]}
                  disabled={disabled}
                  aria-invalid={fd.invalid}
                  aria-describedby={fd.described}
                  onChange={(e) => set((f) => void (f.resources[name] = e.target.value))}
                />
                {fd.problem}
              </label>
            );
          })}
        </div>
      </Section>

      <Section
        title="Environment"
        hint="Set in every container of the operator; a variable the bundle sets is replaced."
      >
        {form.env.map((e, i) => {
          const n = field(`env.${i}.name`);
          return (
            <div key={i} className="flex flex-wrap items-start gap-2">
              <div className="flex flex-col">
                <input
                  aria-label={`Variable ${i + 1} name`}
                  placeholder="NAME"
                  className={input}
                  value={e.name}
                  disabled={disabled}
                  aria-invalid={n.invalid}
                  aria-describedby={n.described}
                  onChange={(ev) => set((f) => void (f.env[i]!.name = ev.target.value))}
                />
                {n.problem}
              </div>
              <input
                aria-label={`Variable ${i + 1} value`}
                placeholder="value"
                className={input}
                value={e.value}
                disabled={disabled}
                onChange={(ev) => set((f) => void (f.env[i]!.value = ev.target.value))}
              />
              <button
                type="button"
                className={small}
                disabled={disabled}
                onClick={() => set((f) => void f.env.splice(i, 1))}
              >
                Remove variable {i + 1}
              </button>
            </div>
          );
        })}
        <button
          type="button"
          className={small}
          disabled={disabled}
          onClick={() => set((f) => void f.env.push({ name: '', value: '' }))}
        >
          Add a variable
        </button>
      </Section>

      <Section
        title="Proxy"
        hint={
          openshift
            ? proxyInCluster
              ? `The cluster proxy (${['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'].map((n) => `${n}=${clusterProxy![n as keyof ClusterProxy] || '""'}`).join(', ')}) is passed to the operator unless you set the proxy here.`
              : clusterProxy
                ? 'This cluster has no proxy configured; OLM would pass it to the operator if it had.'
                : 'You may not read the cluster proxy: whatever it is, OLM passes it to the operator unless you set the proxy here.'
            : 'Upstream OLM passes no cluster proxy on: set it here if the operator needs one.'
        }
      >
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={form.proxy.set}
            disabled={disabled}
            onChange={(e) =>
              set((f) => {
                f.proxy.set = e.target.checked;
                // Start from the cluster's values: changing one of them is the usual reason.
                if (
                  e.target.checked &&
                  clusterProxy &&
                  !f.proxy.HTTP_PROXY &&
                  !f.proxy.HTTPS_PROXY &&
                  !f.proxy.NO_PROXY
                )
                  Object.assign(f.proxy, clusterProxy);
              })
            }
          />
          Set the proxy for this operator{openshift ? " (instead of the cluster's)" : ''}
        </label>
        {form.proxy.set && (
          <div className="grid gap-2">
            {(['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'] as const).map((n) => {
              const fd = field(`proxy.${n}`);
              return (
                <label key={n} className="flex flex-col text-sm">
                  <span>{n}</span>
                  <input
                    id={fd.id}
                    placeholder={n === 'NO_PROXY' ? '.cluster.local,.svc,10.0.0.0/16' : 'http://proxy.example.com:3128'}
                    className={input}
                    value={form.proxy[n]}
                    disabled={disabled}
                    aria-invalid={fd.invalid}
                    aria-describedby={fd.described}
                    onChange={(e) => set((f) => void (f.proxy[n] = e.target.value))}
                  />
                  {fd.problem}
                </label>
              );
            })}
            <p className="text-xs text-slate-600">An empty value is still set: it turns that part of the proxy off.</p>
          </div>
        )}
      </Section>

      <Section
        title="Trusted CA bundle"
        hint={
          openshift
            ? `A ConfigMap in the operator's namespace labelled ${OPENSHIFT_INJECT_CA_LABEL}=true: OpenShift fills its key ${OPENSHIFT_CA_BUNDLE_KEY} with the cluster's trusted CAs. Mounted read-only into every container.`
            : "A ConfigMap of yours in the operator's namespace, holding PEM certificates; mounted read-only into every container."
        }
      >
        {(() => {
          const cm = field('caBundle.configMap');
          const key = field('caBundle.key');
          const path = field('caBundle.mountPath');
          return (
            <div className="grid gap-2">
              <label className="flex flex-col text-sm">
                <span>ConfigMap</span>
                <input
                  id={cm.id}
                  placeholder="trusted-ca"
                  className={input}
                  value={form.caBundle.configMap}
                  disabled={disabled}
                  aria-invalid={cm.invalid}
                  aria-describedby={cm.described}
                  onChange={(e) =>
                    set((f) => {
                      f.caBundle.configMap = e.target.value;
                      if (openshift && !f.caBundle.key) f.caBundle.key = OPENSHIFT_CA_BUNDLE_KEY;
                    })
                  }
                />
                {cm.problem}
              </label>
              {form.caBundle.configMap && (
                <>
                  <label className="flex flex-col text-sm">
                    <span>Key (empty: every key, as a file each)</span>
                    <input
                      id={key.id}
                      className={input}
                      value={form.caBundle.key}
                      disabled={disabled}
                      aria-invalid={key.invalid}
                      aria-describedby={key.described}
                      onChange={(e) => set((f) => void (f.caBundle.key = e.target.value))}
                    />
                    {key.problem}
                  </label>
                  <label className="flex flex-col text-sm">
                    <span>Mount path</span>
                    <input
                      id={path.id}
                      className={input}
                      value={form.caBundle.mountPath}
                      disabled={disabled}
                      aria-invalid={path.invalid}
                      aria-describedby={path.described}
                      onChange={(e) => set((f) => void (f.caBundle.mountPath = e.target.value))}
                    />
                    {path.problem}
                  </label>
                </>
              )}
            </div>
          );
        })()}
      </Section>

      {kept.length > 0 && (
        <p className="text-xs text-slate-600">
          Also in this configuration, kept as it is (edit it in YAML): {kept.join('; ')}.
        </p>
      )}
    </div>
  );
}
