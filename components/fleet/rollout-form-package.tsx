// The rollout form's first part: which package, installed by which OLM, from which catalog, on
// which channel and at which version, with its approval (OLM v0) and the namespace it goes to on
// every cluster. The catalogs, channels and versions are the hub's own (use-rollout-catalog.ts).
import { sortNewestFirst } from '@/lib/olm/semver/version';
import { Warning } from '../common/notice';
import { FormField, INPUT } from './rollout-form-field';
import type { FieldProblems, RolloutForm } from './rollout-form-state';
import type { RolloutCatalog } from './use-rollout-catalog';

export function RolloutPackageFields({
  form,
  set,
  catalog,
  problems,
}: {
  /** The form with the catalog, channel and version in effect. */
  form: RolloutForm;
  set: (change: Partial<RolloutForm>) => void;
  catalog: RolloutCatalog;
  problems: FieldProblems;
}) {
  const channel = catalog.channels.find((c) => c.name === form.channel);
  const versions = channel
    ? sortNewestFirst(
        channel.versions,
        (v) => v.version,
        (v) => v.csvName,
      )
    : [];
  const allNamespaces = catalog.installModes?.includes('AllNamespaces');
  return (
    <fieldset className="min-w-0 space-y-3 rounded border border-slate-300 bg-white p-3">
      <legend className="px-1 font-semibold">Package</legend>
      <fieldset className="min-w-0">
        <legend className="text-sm font-semibold">Installed by</legend>
        <div className="flex flex-wrap gap-4 text-sm">
          {(['v0', 'v1'] as const).map((o) => (
            <label key={o} className="flex items-center gap-1">
              <input
                type="radio"
                name="rollout-olm"
                value={o}
                checked={form.olm === o}
                onChange={() => set({ olm: o, catalog: '', channel: '', version: '' })}
              />
              {o === 'v0' ? 'OLM v0 (a Subscription)' : 'OLM v1 (a ClusterExtension)'}
            </label>
          ))}
        </div>
        {problems.olm ? <p className="text-sm text-red-800">{problems.olm.join('; ')}</p> : null}
      </fieldset>
      <div className="grid gap-3 md:grid-cols-2">
        <FormField
          label="Package name"
          hint="From the hub's catalogs; every cluster resolves it from its own catalog of the same name."
          problems={[
            ...(problems.package ?? []),
            ...(catalog.notOffered
              ? [`no ${form.olm === 'v0' ? 'CatalogSource' : 'ClusterCatalog'} you may read on the hub offers it`]
              : []),
          ]}
        >
          {(p) => (
            <>
              <input
                {...p}
                className={INPUT}
                list="rollout-package-names"
                autoComplete="off"
                value={form.package}
                onChange={(e) => set({ package: e.target.value, catalog: '', channel: '', version: '' })}
              />
              <datalist id="rollout-package-names">
                {catalog.names.map((n) => (
                  <option key={n} value={n} />
                ))}
              </datalist>
            </>
          )}
        </FormField>
        <FormField label="Catalog" problems={problems.catalog}>
          {(p) => (
            <select
              {...p}
              className={INPUT}
              value={form.catalog}
              disabled={!catalog.catalogs.length}
              onChange={(e) => set({ catalog: e.target.value, channel: '', version: '' })}
            >
              {!catalog.catalogs.length ? <option value="">Type a package the hub offers first</option> : null}
              {catalog.catalogs.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label="Channel" problems={problems.channel}>
          {(p) => (
            <select
              {...p}
              className={INPUT}
              value={form.channel}
              disabled={!catalog.channels.length}
              onChange={(e) => set({ channel: e.target.value, version: '' })}
            >
              {!catalog.channels.length ? <option value="">No channels yet</option> : null}
              {catalog.channels.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.name}
                  {c.name === catalog.defaultChannel ? ' (default)' : ''}
                  {c.deprecation ? ' (deprecated)' : ''}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField
          label={form.olm === 'v0' ? 'Starting version' : 'Version'}
          hint={
            form.olm === 'v0'
              ? "The Subscription's startingCSV; OLM then follows the channel."
              : 'The ClusterExtension is held to it; without one, v1 installs the newest the channel offers.'
          }
          problems={problems.version}
        >
          {(p) => (
            <select {...p} className={INPUT} value={form.version} onChange={(e) => set({ version: e.target.value })}>
              <option value="">The channel&apos;s newest</option>
              {versions.map((v) => (
                <option key={v.csvName} value={form.olm === 'v0' ? v.csvName : (v.version ?? v.csvName)}>
                  {v.version ?? v.csvName}
                  {v.deprecation ? ' (deprecated)' : ''}
                </option>
              ))}
            </select>
          )}
        </FormField>
        {form.olm === 'v0' ? (
          <fieldset className="min-w-0">
            <legend className="text-sm font-semibold">Approval of each cluster&apos;s InstallPlans</legend>
            <div className="flex flex-wrap gap-4 text-sm">
              {(['Automatic', 'Manual'] as const).map((a) => (
                <label key={a} className="flex items-center gap-1">
                  <input
                    type="radio"
                    name="rollout-approval"
                    value={a}
                    checked={form.approval === a}
                    onChange={() => set({ approval: a })}
                  />
                  {a}
                </label>
              ))}
            </div>
            {problems.approval ? <p className="text-sm text-red-800">{problems.approval.join('; ')}</p> : null}
          </fieldset>
        ) : null}
        <FormField
          label="Namespace on every cluster"
          hint={
            form.olm === 'v0'
              ? 'Made on each cluster with an OperatorGroup for all namespaces, and the Subscription in it.'
              : "Made on each cluster for the installer's ServiceAccount; the ClusterExtension installs into it."
          }
          problems={problems.installNamespace}
        >
          {(p) => (
            <input
              {...p}
              className={INPUT}
              value={form.installNamespace}
              onChange={(e) => set({ installNamespace: e.target.value })}
            />
          )}
        </FormField>
      </div>
      {form.olm === 'v0' && catalog.installModes && !allNamespaces ? (
        <Warning title="This operator does not support all namespaces">
          The channel&apos;s newest version supports {catalog.installModes.join(', ') || 'no install mode'}; a rollout
          installs it with an OperatorGroup for all namespaces, which OLM would refuse on every cluster.
        </Warning>
      ) : null}
    </fieldset>
  );
}
