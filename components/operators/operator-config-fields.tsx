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

/** What `field` says of one field: its element id, whether it has a problem, and the problem's text. */
interface FieldCheck {
  id: string;
  invalid: boolean;
  described?: string;
  problem: ReactNode;
}

interface InputProps {
  check: FieldCheck;
  /** Names a row's input; an input under a visible label goes without it and carries the field's id. */
  label?: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  disabled?: boolean;
  className?: string;
}

/** The input of a checked field: invalid and described by its problem when it has one. */
function CheckedInput({ check, label, value, onChange, placeholder, disabled, className }: InputProps) {
  return (
    <input
      {...(label ? { 'aria-label': label } : { id: check.id })}
      placeholder={placeholder}
      className={className ? `${input} ${className}` : input}
      value={value}
      disabled={disabled}
      aria-invalid={check.invalid}
      aria-describedby={check.described}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** A text input of a list's row, named by its aria-label, with its problem under it. */
function RowInput(props: InputProps & { label: string }) {
  return (
    <div className="flex flex-col">
      <CheckedInput {...props} />
      {props.check.problem}
    </div>
  );
}

/** A text input under a visible label, with its problem under it. */
function LabelledInput({ label, ...props }: InputProps & { label: string }) {
  return (
    <label className="flex flex-col text-sm">
      <span>{label}</span>
      <CheckedInput {...props} />
      {props.check.problem}
    </label>
  );
}

/** The small link-like button that adds or removes a row. */
function RowButton({ disabled, onClick, children }: { disabled?: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className={small} disabled={disabled} onClick={onClick}>
      {children}
    </button>
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
  const field = (name: string): FieldCheck => {
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
              <RowInput
                check={k}
                label={`Node label ${i + 1} key`}
                placeholder="node-role.kubernetes.io/infra"
                value={r.key}
                disabled={disabled}
                onChange={(value) => set((f) => void (f.nodeSelector[i]!.key = value))}
              />
              <RowInput
                check={v}
                label={`Node label ${i + 1} value`}
                placeholder="(any value: leave empty)"
                value={r.value}
                disabled={disabled}
                onChange={(value) => set((f) => void (f.nodeSelector[i]!.value = value))}
              />
              <RowButton disabled={disabled} onClick={() => set((f) => void f.nodeSelector.splice(i, 1))}>
                Remove node label {i + 1}
              </RowButton>
            </div>
          );
        })}
        <RowButton disabled={disabled} onClick={() => set((f) => void f.nodeSelector.push({ key: '', value: '' }))}>
          Add a node label
        </RowButton>
      </Section>

      <Section title="Tolerations" hint="Taints the operator's pods tolerate, added to the bundle's own.">
        {form.tolerations.map((t, i) => {
          const k = field(`tolerations.${i}.key`);
          const v = field(`tolerations.${i}.value`);
          const s = field(`tolerations.${i}.seconds`);
          const upd = (change: (row: TolerationRow) => void) => set((f) => change(f.tolerations[i]!));
          return (
            <div key={i} className="flex flex-wrap items-start gap-2 rounded border border-slate-200 p-2">
              <RowInput
                check={k}
                label={`Toleration ${i + 1} key`}
                placeholder="key"
                value={t.key}
                disabled={disabled}
                onChange={(value) => upd((r) => void (r.key = value))}
              />
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
              <RowInput
                check={v}
                label={`Toleration ${i + 1} value`}
                placeholder="value"
                value={t.value}
                disabled={disabled || t.operator === 'Exists'}
                onChange={(value) => upd((r) => void (r.value = value))}
              />
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
                <RowInput
                  check={s}
                  label={`Toleration ${i + 1} seconds`}
                  placeholder="seconds (none: forever)"
                  className="w-44"
                  value={t.seconds}
                  disabled={disabled}
                  onChange={(value) => upd((r) => void (r.seconds = value))}
                />
              )}
              <RowButton disabled={disabled} onClick={() => set((f) => void f.tolerations.splice(i, 1))}>
                Remove toleration {i + 1}
              </RowButton>
            </div>
          );
        })}
        <RowButton
          disabled={disabled}
          onClick={() =>
            set(
              (f) =>
                void f.tolerations.push({ key: '', operator: 'Equal', value: '', effect: 'NoSchedule', seconds: '' }),
            )
          }
        >
          Add a toleration
        </RowButton>
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
              <LabelledInput
                key={name}
                check={fd}
                label={label}
                placeholder={example}
                value={form.resources[name]}
                disabled={disabled}
                onChange={(value) => set((f) => void (f.resources[name] = value))}
              />
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
              <RowInput
                check={n}
                label={`Variable ${i + 1} name`}
                placeholder="NAME"
                value={e.name}
                disabled={disabled}
                onChange={(value) => set((f) => void (f.env[i]!.name = value))}
              />
              <input
                aria-label={`Variable ${i + 1} value`}
                placeholder="value"
                className={input}
                value={e.value}
                disabled={disabled}
                onChange={(ev) => set((f) => void (f.env[i]!.value = ev.target.value))}
              />
              <RowButton disabled={disabled} onClick={() => set((f) => void f.env.splice(i, 1))}>
                Remove variable {i + 1}
              </RowButton>
            </div>
          );
        })}
        <RowButton disabled={disabled} onClick={() => set((f) => void f.env.push({ name: '', value: '' }))}>
          Add a variable
        </RowButton>
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
                <LabelledInput
                  key={n}
                  check={fd}
                  label={n}
                  placeholder={n === 'NO_PROXY' ? '.cluster.local,.svc,10.0.0.0/16' : 'http://proxy.example.com:3128'}
                  value={form.proxy[n]}
                  disabled={disabled}
                  onChange={(value) => set((f) => void (f.proxy[n] = value))}
                />
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
              <LabelledInput
                check={cm}
                label="ConfigMap"
                placeholder="trusted-ca"
                value={form.caBundle.configMap}
                disabled={disabled}
                onChange={(value) =>
                  set((f) => {
                    f.caBundle.configMap = value;
                    if (openshift && !f.caBundle.key) f.caBundle.key = OPENSHIFT_CA_BUNDLE_KEY;
                  })
                }
              />
              {form.caBundle.configMap && (
                <>
                  <LabelledInput
                    check={key}
                    label="Key (empty: every key, as a file each)"
                    value={form.caBundle.key}
                    disabled={disabled}
                    onChange={(value) => set((f) => void (f.caBundle.key = value))}
                  />
                  <LabelledInput
                    check={path}
                    label="Mount path"
                    value={form.caBundle.mountPath}
                    disabled={disabled}
                    onChange={(value) => set((f) => void (f.caBundle.mountPath = value))}
                  />
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
