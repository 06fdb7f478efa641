'use client';
// Where the extension goes: its name (v1 names its Helm release after it, so at most 53
// characters), the install namespace, and the ServiceAccount v1 installs with.
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export interface WhereState {
  name: string;
  namespace: string;
  serviceAccount: string;
  grant: boolean;
}

const INPUT = 'rounded border border-slate-300 bg-white px-2 py-1.5';

function Problem({ id, text }: { id: string; text?: string }) {
  return text ? (
    <span id={id} className="mt-1 text-xs text-red-800">
      {text}
    </span>
  ) : null;
}

export function WhereFields({ value, onChange }: { value: WhereState; onChange: (v: WhereState) => void }) {
  const nameProblem =
    !SUBDOMAIN.test(value.name) || value.name.length > 53
      ? 'Lowercase letters, digits, "-" and ".", at most 53 characters (v1 names its Helm release after it).'
      : undefined;
  const nsProblem =
    !LABEL.test(value.namespace) || value.namespace.length > 63
      ? 'A namespace name is lowercase letters, digits and "-", at most 63 characters.'
      : undefined;
  const saProblem = !SUBDOMAIN.test(value.serviceAccount)
    ? 'Lowercase letters, digits, "-" and ".", starting and ending with a letter or digit.'
    : undefined;
  return (
    <>
      <label className="flex flex-col text-sm">
        <span className="font-medium">ClusterExtension name</span>
        <input
          value={value.name}
          onChange={(e) => onChange({ ...value, name: e.target.value.trim() })}
          className={INPUT}
          aria-invalid={!!nameProblem}
          aria-describedby={nameProblem ? 'name-problem' : undefined}
        />
        <Problem id="name-problem" text={nameProblem} />
      </label>
      <label className="flex flex-col text-sm">
        <span className="font-medium">Install namespace</span>
        <input
          value={value.namespace}
          onChange={(e) => onChange({ ...value, namespace: e.target.value.trim() })}
          className={INPUT}
          aria-invalid={!!nsProblem}
          aria-describedby={nsProblem ? 'ns-problem' : undefined}
        />
        <Problem id="ns-problem" text={nsProblem} />
        <span className="mt-1 text-xs text-slate-600">
          The operator runs here and watches every namespace (v1.2.0 installs for all namespaces only).
        </span>
      </label>
      <label className="flex flex-col text-sm">
        <span className="font-medium">ServiceAccount</span>
        <input
          value={value.serviceAccount}
          onChange={(e) => onChange({ ...value, serviceAccount: e.target.value.trim() })}
          className={INPUT}
          aria-invalid={!!saProblem}
          aria-describedby={saProblem ? 'sa-problem' : undefined}
        />
        <Problem id="sa-problem" text={saProblem} />
        <span className="mt-1 text-xs text-slate-600">
          v1 installs with this account&apos;s token, not with your rights: it needs rights to create exactly this
          bundle&apos;s objects.
        </span>
      </label>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 h-5 w-5 shrink-0"
          checked={value.grant}
          onChange={(e) => onChange({ ...value, grant: e.target.checked })}
        />
        <span>Grant the ServiceAccount the rights this bundle needs (a ClusterRole, a Role and their bindings)</span>
      </label>
    </>
  );
}
