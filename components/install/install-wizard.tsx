'use client';
// The install wizard: channel, version, install mode (every mode the version supports), the
// namespace to install into and the ones to watch, approval. Each choice is planned by the
// backend at once, and the plan — objects, warnings, blockers — is shown before the button. An
// Advanced section sets the operator's pod placement and configuration (Subscription spec.config).
import { useMutation, useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useSearchParams } from 'next/navigation';
import { useClusterRouter } from '@/lib/client/cluster';
import { useDeferredValue, useState } from 'react';
import { apiGet, apiWrite, ApiClientError } from '@/lib/client/api';
import { usePermission } from '@/lib/client/permissions';
import type { InstallModeType } from '@/lib/olm/resources/cluster-service-version';
import { DeprecatedBadge } from '../common/deprecated-badge';
import { ErrorNotice } from '../common/notice';
import { bringsUrl, OperatorBrings, v0NamespacedWhere } from '../details/operator-brings';
import { PackageError, packageApiBase, usePackageDetails, type PackageRefProps } from '../details/package-details-view';
import { VersionOptions } from '../details/version-options';
import { configFromForm, emptyForm, formFromConfig, validateForm } from '@/lib/olm/install/operator-config-form';
import type { PodPlacementFacts } from '@/lib/api/operator-config';
import { OperatorConfigFields } from '../operators/operator-config-fields';
import { PlanExport } from './plan-export';
import { PlanPreview } from './plan-preview';
import { emptyOpenShiftChoice, OpenShiftOptionFields, type OpenShiftChoice } from './openshift-option-fields';
import { ServiceAccountFields, type ServiceAccountChoice } from './service-account-fields';
import { useMyNamespaces } from '../common/namespace-memory';
import { ApprovalFields } from './approval-fields';
import { InstallModeFields } from './install-mode-fields';
import { namespaceNameOk, serviceAccountNameOk, type Approval, type InstallChoices } from './install-request';
import { useInstallPlan } from './use-install-plan';
import { LinkProblems } from './link-problems';
import { ShareInstall } from './share-install';
import { readShareLink } from './share-link';

interface NamespaceList {
  canListAll: boolean;
  globalNamespaces: string[];
  namespaces: { name: string; operatorGroups: { name: string; targets: 'all' | string[] }[] }[];
}

export function InstallWizard(props: PackageRefProps) {
  const params = useSearchParams();
  const router = useClusterRouter();
  const viewer = params.get('namespace') ?? undefined;
  // A shared link's choices are read once, as the wizard's starting state (share-link.ts).
  const [link] = useState(() => readShareLink(params));
  const shared = link.choices;
  const [channel, setChannel] = useState(shared.channel);
  const [version, setVersion] = useState(shared.version);
  const details = usePackageDetails(props, channel, version, viewer);
  const namespaces = useQuery({
    queryKey: ['namespaces', viewer ?? ''],
    queryFn: ({ signal }) =>
      apiGet<NamespaceList>(`/api/namespaces${viewer ? `?namespace=${encodeURIComponent(viewer)}` : ''}`, signal),
  });
  const mine = useMyNamespaces().data;
  const d = details.data;
  const csv = d?.selected.csv;
  const modes = (csv?.installModes ?? []).filter((m) => m.supported).map((m) => m.type);
  const globals = namespaces.data?.globalNamespaces ?? [];
  const globalNs = globals.includes('openshift-operators')
    ? 'openshift-operators'
    : globals.includes('operators')
      ? 'operators'
      : (globals[0] ?? 'operators');
  // All namespaces goes into a global namespace: offered only to someone who may install there.
  const mayGlobal = usePermission(modes.includes('AllNamespaces') ? globalNs : undefined, 'install');
  const refused: Partial<Record<InstallModeType, string>> =
    mayGlobal.allowed === false
      ? {
          AllNamespaces: `it installs into ${globalNs}, which needs a role that may create Subscriptions there (admin of ${globalNs}, or cluster-admin); the cluster says ${mayGlobal.reason ?? 'no'}.`,
        }
      : {};
  const [modeChoice, setMode] = useState<InstallModeType | undefined>(shared.installMode);
  const usable = modes.filter((m) => !refused[m]);
  const mode = modeChoice && usable.includes(modeChoice) ? modeChoice : (usable[0] ?? modes[0]);
  const suggested = csv?.suggestedNamespace || csv?.suggestedNamespaceTemplate?.name;
  const [nsChoice, setNs] = useState<string | undefined>(shared.namespace);
  // A person who may not read every namespace installs into one of theirs (a namespace admin into
  // hers), not into a suggested namespace they could never create.
  const theirs = mine && !mine.clusterWide ? mine.namespaces[0] : undefined;
  const defaultNs = mode === 'AllNamespaces' ? globalNs : (viewer ?? theirs ?? suggested ?? `${props.pkg}-system`);
  const installNs = nsChoice ?? defaultNs;
  const [watched, setWatched] = useState<string[]>(shared.watched ?? []);
  const [approval, setApproval] = useState<Approval>(shared.approval ?? 'Automatic');
  const [configForm, setConfigForm] = useState(() => (shared.config ? formFromConfig(shared.config) : emptyForm()));
  const configProblems = validateForm(configForm);
  const config = configFromForm(configForm);
  const placementFacts = useQuery({
    queryKey: ['pod-placement'],
    queryFn: ({ signal }) => apiGet<PodPlacementFacts>('/api/pod-placement', signal),
    staleTime: 60_000,
  });
  const nonHead = d ? !d.selected.isHead : false;
  const [account, setAccount] = useState<ServiceAccountChoice>(
    shared.serviceAccount ? { on: true, ...shared.serviceAccount } : { on: false, name: 'olm-installer', grant: true },
  );
  const accountOk = serviceAccountNameOk(account.name);
  const [osChoice, setOsChoice] = useState<OpenShiftChoice>(emptyOpenShiftChoice);

  const choices: InstallChoices | undefined =
    d && mode
      ? {
          catalog: { namespace: props.catalogNamespace, name: props.catalog },
          package: props.pkg,
          channel: d.selected.channel,
          version: d.selected.csvName,
          namespace: installNs,
          installMode: mode,
          watched,
          approval,
          ...(viewer ? { viewerNamespace: viewer } : {}),
          ...(config && configProblems.length === 0 ? { config } : {}),
          ...(account.on ? { serviceAccount: { name: account.name, grant: account.grant } } : {}),
          openshift: osChoice,
        }
      : undefined;
  const deferred = useDeferredValue(choices);
  const planned = useInstallPlan(deferred);
  const plan = planned.data?.plan;
  // The plan shown may be of earlier choices (kept while the new one is computed, so the preview
  // does not blank at every click): said beside it, and Install waits for the plan of these.
  const recomputing =
    !!plan && (planned.isFetching || planned.isPlaceholderData || JSON.stringify(deferred) !== JSON.stringify(choices));
  const planValid = namespaceNameOk(installNs);
  const may = usePermission(planValid ? installNs : undefined, 'install');
  const install = useMutation({
    mutationFn: () =>
      apiWrite<{ subscription: { namespace: string; name: string } }>('/api/install', 'POST', planned.data?.body),
    onSuccess: (r) =>
      router.push(
        `/installs/${encodeURIComponent(r.subscription.namespace)}/${encodeURIComponent(r.subscription.name)}`,
      ),
  });

  if (details.error) return <PackageError error={details.error} {...props} onRetry={() => void details.refetch()} />;
  if (!d) return <p role="status">Loading {props.pkg}…</p>;
  const ch = d.channels.find((c) => c.name === d.selected.channel)!;
  const existing = namespaces.data?.namespaces ?? [];
  // What the person can use, from the cluster's list or their own (useMyNamespaces), for the pickers.
  const namespaceOptions = [...new Set([...existing.map((n) => n.name), ...(mine?.namespaces ?? [])])].sort();
  const otherNamespaces = namespaceOptions.filter((n) => n !== installNs);
  const blockers = plan?.blockers ?? [];
  const cannot =
    may.allowed === false
      ? `You may not install operators in ${installNs}: ${may.reason ?? 'the cluster refused'}`
      : undefined;
  const disabled =
    !planValid ||
    !plan ||
    recomputing ||
    blockers.length > 0 ||
    !!cannot ||
    install.isPending ||
    configProblems.length > 0 ||
    (account.on && !accountOk);
  const detailsHref = `/operatorhub/${encodeURIComponent(props.catalogNamespace)}/${encodeURIComponent(props.catalog)}/${encodeURIComponent(props.pkg)}${viewer ? `?namespace=${encodeURIComponent(viewer)}` : ''}`;

  return (
    <article className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <Link className="text-sky-700 underline" href="/operatorhub">
          OperatorHub
        </Link>{' '}
        /{' '}
        <Link className="text-sky-700 underline" href={detailsHref}>
          {csv?.displayName ?? d.name}
        </Link>{' '}
        / Install
      </nav>
      <h1 className="text-2xl font-bold">Install {csv?.displayName ?? d.name}</h1>
      <LinkProblems link={link} modes={modes} refused={refused} />
      <div className="grid grid-cols-[minmax(0,1fr)] gap-8 lg:grid-cols-[26rem_minmax(0,1fr)]">
        <form className="space-y-5" onSubmit={(e) => e.preventDefault()} aria-label="Install choices">
          <label className="flex flex-col text-sm">
            <span className="font-medium">Update channel</span>
            <select
              value={d.selected.channel}
              onChange={(e) => {
                setChannel(e.target.value);
                setVersion(undefined);
              }}
              aria-describedby={ch.deprecation ? 'channel-deprecation' : undefined}
              className="rounded border border-slate-300 bg-white px-2 py-1.5"
            >
              {d.channels.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.name}
                  {c.isDefault ? ' (default)' : ''}
                  {c.deprecation ? ' (deprecated)' : ''}
                </option>
              ))}
            </select>
          </label>
          {ch.deprecation && (
            <p id="channel-deprecation" className="-mt-3 flex items-start gap-2 text-xs text-amber-900">
              <DeprecatedBadge description={`Channel ${ch.name} is deprecated: ${ch.deprecation}`} />
              <span>{ch.deprecation}</span>
            </p>
          )}
          <label className="flex flex-col text-sm">
            <span className="font-medium">Version</span>
            <select
              value={d.selected.csvName}
              onChange={(e) => setVersion(e.target.value)}
              className="rounded border border-slate-300 bg-white px-2 py-1.5"
            >
              <VersionOptions versions={ch.versions} />
            </select>
            {nonHead && (
              <span className="mt-1 text-xs text-amber-800">
                Not the latest in {ch.name}: the Subscription starts at this version with Manual approval, because
                Automatic would upgrade it to {ch.headVersion ?? ch.head} at once.
              </span>
            )}
          </label>

          <InstallModeFields
            modes={modes}
            mode={mode}
            refused={refused}
            onChange={(m) => {
              setMode(m);
              setNs(undefined);
              setWatched([]);
            }}
          />

          <label className="flex flex-col text-sm">
            <span className="font-medium">Installed namespace</span>
            <input
              list="namespace-options"
              value={installNs}
              onChange={(e) => setNs(e.target.value.trim())}
              className="rounded border border-slate-300 bg-white px-2 py-1.5"
              aria-invalid={!planValid}
            />
            <datalist id="namespace-options">
              {(mode === 'AllNamespaces' ? globals : namespaceOptions).map((n) => (
                <option key={n} value={n} />
              ))}
              {suggested && <option value={suggested}>suggested</option>}
            </datalist>
            {!planValid && (
              <span className="mt-1 text-xs text-red-800">
                A namespace name is lowercase letters, digits and &quot;-&quot;, at most 63 characters.
              </span>
            )}
            {mode === 'AllNamespaces' && (
              <span className="mt-1 text-xs text-slate-600">
                Global namespaces here: {globals.join(', ') || 'none yet'}. A new namespace gets an OperatorGroup
                targeting all namespaces.
              </span>
            )}
            {mode !== 'AllNamespaces' && suggested && installNs !== suggested && (
              <button
                type="button"
                className="mt-1 self-start text-xs text-sky-700 underline"
                onClick={() => setNs(suggested)}
              >
                Use the suggested namespace {suggested}
              </button>
            )}
            {!existing.some((n) => n.name === installNs) && planValid && namespaces.data?.canListAll && (
              <span className="mt-1 text-xs text-slate-600">
                {installNs} does not exist yet: the install creates it
                {csv?.suggestedNamespaceTemplate?.name === installNs
                  ? ' with the labels and annotations the operator suggests'
                  : ''}
                .
              </span>
            )}
          </label>

          {mode === 'SingleNamespace' && (
            <label className="flex flex-col text-sm">
              <span className="font-medium">Watched namespace</span>
              <select
                value={watched[0] ?? ''}
                onChange={(e) => setWatched(e.target.value ? [e.target.value] : [])}
                className="rounded border border-slate-300 bg-white px-2 py-1.5"
              >
                <option value="">Choose a namespace…</option>
                {otherNamespaces.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
          )}
          {mode === 'MultiNamespace' && <MultiPicker options={otherNamespaces} value={watched} onChange={setWatched} />}

          <ApprovalFields chosen={approval} nonHead={nonHead} planned={planned.data} onChange={setApproval} />

          <OpenShiftOptionFields plan={plan} value={osChoice} onChange={setOsChoice} />

          <ServiceAccountFields plan={plan} value={account} onChange={setAccount} nameOk={accountOk} />

          <details
            className="rounded border border-slate-200 bg-white p-3"
            open={!!config || configProblems.length > 0 || undefined}
          >
            <summary className="cursor-pointer text-sm font-medium">
              Advanced: pod placement and configuration{config ? ' (set)' : ''}
            </summary>
            <p className="mt-2 text-xs text-slate-600">
              Written to the Subscription&apos;s spec.config; OLM applies it to the operator&apos;s Deployments. It can
              be changed after the install, on the operator&apos;s Subscription tab.
            </p>
            <div className="mt-3">
              <OperatorConfigFields
                idPrefix="install-config"
                form={configForm}
                onChange={setConfigForm}
                problems={configProblems}
                openshift={placementFacts.data?.openshift ?? false}
                clusterProxy={placementFacts.data?.clusterProxy}
                nodes={placementFacts.data?.nodes}
              />
            </div>
          </details>
        </form>

        <section aria-labelledby="plan-title" className="min-w-0 space-y-3">
          <h2 id="plan-title" className="text-lg font-semibold">
            What the install will do
          </h2>
          {!planValid && <p className="text-sm text-slate-600">Choose a valid namespace to see the plan.</p>}
          {planned.error && <ErrorNotice error={planned.error} what="The install could not be planned" />}
          {planValid && !plan && !planned.error && <p role="status">Planning…</p>}
          {configProblems.length > 0 && (
            <p role="alert" className="text-sm text-red-800">
              The pod configuration has {configProblems.length === 1 ? 'a field' : `${configProblems.length} fields`} to
              fix (Advanced section); the plan shows the install without it.
            </p>
          )}
          {recomputing && (
            <p role="status" className="text-sm text-slate-600">
              Recomputing the plan for your latest choices…
            </p>
          )}
          {plan && <PlanPreview plan={plan} />}
          <OperatorBrings
            olm="v0"
            level={3}
            folded
            namespacedWhere={v0NamespacedWhere(mode, installNs, watched)}
            url={bringsUrl(packageApiBase(props), {
              channel: d.selected.channel,
              version: d.selected.csvName,
              namespace: viewer,
            })}
          />
          {plan && plan.blockers.length === 0 && !plan.alreadyInstalled && <PlanExport plan={plan} />}
          {install.error && <InstallError error={install.error} />}
          <div className="flex items-center gap-3">
            <button
              type="button"
              disabled={disabled}
              onClick={() => install.mutate()}
              aria-describedby={cannot ? 'install-cannot' : undefined}
              className="rounded bg-sky-700 px-5 py-2 font-semibold text-white hover:bg-sky-800 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-600"
            >
              {install.isPending ? 'Installing…' : 'Install'}
            </button>
            {cannot && (
              <p id="install-cannot" className="text-sm text-slate-700">
                {cannot}
              </p>
            )}
          </div>
          {choices && (
            <ShareInstall
              choices={choices}
              refused={
                cannot ??
                (blockers.some((b) => b.code === 'forbidden')
                  ? 'The cluster does not let you make this install yourself (the plan says why)'
                  : undefined)
              }
            />
          )}
        </section>
      </div>
    </article>
  );
}

function InstallError({ error }: { error: Error }) {
  const blockers =
    error instanceof ApiClientError
      ? (error.body.details as { blockers?: { message: string }[] } | undefined)?.blockers
      : undefined;
  if (!blockers?.length) return <ErrorNotice error={error} what="The install failed" />;
  return (
    <div role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
      <p className="font-semibold">The cluster changed and the install was refused</p>
      <ul className="list-disc pl-5">
        {blockers.map((b) => (
          <li key={b.message}>{b.message}</li>
        ))}
      </ul>
    </div>
  );
}

function MultiPicker({
  options,
  value,
  onChange,
}: {
  options: string[];
  value: string[];
  onChange: (v: string[]) => void;
}) {
  const [filter, setFilter] = useState('');
  const shown = options.filter((o) => o.includes(filter)).slice(0, 50);
  return (
    <fieldset className="space-y-1 text-sm">
      <legend className="font-medium">Watched namespaces</legend>
      <input
        type="search"
        aria-label="Find a namespace"
        placeholder="Find a namespace…"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        className="w-full rounded border border-slate-300 bg-white px-2 py-1"
      />
      <div className="max-h-48 overflow-y-auto rounded border border-slate-200 bg-white p-2">
        {shown.map((o) => (
          <label key={o} className="flex min-h-7 items-center gap-2">
            <input
              type="checkbox"
              className="h-5 w-5"
              checked={value.includes(o)}
              onChange={() => onChange(value.includes(o) ? value.filter((v) => v !== o) : [...value, o])}
            />{' '}
            {o}
          </label>
        ))}
        {options.length > shown.length && (
          <p className="text-xs text-slate-500">{options.length - shown.length} more: narrow the search.</p>
        )}
      </div>
      <p className="text-xs text-slate-600">{value.length ? `Chosen: ${value.join(', ')}` : 'Pick at least two.'}</p>
    </fieldset>
  );
}
