'use client';
// Installing a package of a ClusterCatalog as an OLM v1 ClusterExtension: name, namespace, the
// ServiceAccount v1 installs with (and its rights), channels, version (exact or a range built from
// the catalog's versions, resolved live), catalog selection and upgrade policy. Every choice is
// planned by the server at once (POST /api/olm-v1/clusterextensions/plan) and the plan — objects,
// warnings, blockers in v1's and the cluster's words — is shown before the button, as in the v0
// wizard (components/install/install-wizard.tsx), whose plan preview this reuses.
import { useMutation, useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useSearchParams } from 'next/navigation';
import { useDeferredValue, useState } from 'react';
import { apiWrite } from '@/lib/client/api';
import type { V1InstallAnswer, V1InstallRequestBody, V1PlanAnswer } from '@/lib/api/olm-v1-install';
import type { UpgradeConstraintPolicy } from '@/lib/olm/v1/resolve';
import { versionField } from '@/lib/olm/v1/version-choice';
import { ErrorNotice } from '../../common/notice';
import { PlanPreview } from '../../install/plan-preview';
import { InstallFollow } from './install-follow';
import { bringsUrl, OperatorBrings } from '../../details/operator-brings';
import { v1PackageApiBase } from '../../details/v1-package-view';
import { PlanExtras } from './plan-extras';
import { choiceOf, VersionFields, type VersionState } from './version-fields';
import { WhereFields, type WhereState } from './where-fields';

const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

const needsStart = (v: VersionState) => v.kind === 'exact' || v.kind === 'minor' || v.kind === 'major';

export function V1InstallWizard({ catalog, pkg }: { catalog: string; pkg: string }) {
  const params = useSearchParams();
  const urlChannel = params.get('channel');
  const urlVersion = params.get('version');
  const [where, setWhere] = useState<WhereState>({
    name: pkg.slice(0, 53),
    namespace: `${pkg}-system`.slice(0, 63),
    serviceAccount: `${pkg}-installer`.slice(0, 253),
    grant: true,
  });
  const [channels, setChannels] = useState<string[]>(urlChannel ? [urlChannel] : []);
  const [version, setVersion] = useState<VersionState>({
    kind: urlVersion ? 'exact' : 'latest',
    base: urlVersion ?? '',
    range: '',
  });
  const [onlyThisCatalog, setOnly] = useState(false);
  const [policy, setPolicy] = useState<UpgradeConstraintPolicy>('CatalogProvided');

  // A version to start "exact", "this minor" or "this major" from is known once the first plan has
  // listed the catalog's versions; chosen before that, the plan is asked as "latest" meanwhile, so
  // it still comes and brings them (Install waits: the body changes once the start is known).
  const field = needsStart(version) && !version.base ? {} : versionField(choiceOf(version));
  const whereOk = NAME.test(where.namespace) && where.name.length <= 53 && !!where.name && !!where.serviceAccount;
  const body: V1InstallRequestBody | undefined =
    whereOk && !('error' in field)
      ? {
          catalog,
          packageName: pkg,
          name: where.name,
          namespace: where.namespace,
          serviceAccount: { name: where.serviceAccount, grant: where.grant },
          ...(field.version ? { version: field.version } : {}),
          channels,
          onlyThisCatalog,
          upgradeConstraintPolicy: policy,
        }
      : undefined;
  const deferred = useDeferredValue(body);
  const planned = useQuery({
    queryKey: ['v1-install-plan', deferred],
    queryFn: () => apiWrite<V1PlanAnswer>('/api/olm-v1/clusterextensions/plan', 'POST', deferred),
    enabled: !!deferred,
    placeholderData: (prev) => prev,
    staleTime: 0,
  });
  const install = useMutation({
    mutationFn: (b: V1InstallRequestBody) => apiWrite<V1InstallAnswer>('/api/olm-v1/clusterextensions', 'POST', b),
  });

  const answer = planned.data;
  const plan = answer?.plan;
  const versions = answer?.package.versions ?? [];
  const shownVersions = channels.length
    ? (answer?.package.channels.filter((c) => channels.includes(c.name)).flatMap((c) => c.versions) ?? [])
    : versions;
  const stale = planned.isFetching || JSON.stringify(deferred) !== JSON.stringify(body);
  // The start version for exact, minor and major: the one the link named, else the highest offered.
  const base = version.base && versions.includes(version.base) ? version.base : (shownVersions[0] ?? versions[0] ?? '');
  const effectiveVersion = version.base === base ? version : { ...version, base };
  // The start chosen before the versions were known: taken from them as soon as they are (state
  // adjusted while rendering, as React allows for state derived from what a render learns).
  if (needsStart(version) && !version.base && base) setVersion({ ...version, base });
  const blockers = plan?.blockers ?? [];
  const cannot = !body
    ? 'fix the fields marked above'
    : planned.error
      ? 'the install cannot be planned (see above)'
      : blockers.length
        ? 'the plan says what stands in the way'
        : undefined;
  const title = answer?.package.displayName ?? pkg;
  const packageHref = `/clustercatalogs/${encodeURIComponent(catalog)}/packages/${encodeURIComponent(pkg)}`;

  if (install.data && install.variables)
    return (
      <article className="space-y-6">
        <h1 className="text-2xl font-bold [overflow-wrap:anywhere]">Install {title} with OLM v1</h1>
        <InstallFollow body={install.variables} notices={install.data.warnings.filter((w) => w.code === 'unmarked')} />
      </article>
    );

  return (
    <article className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <Link className="text-sky-700 underline" href="/clustercatalogs">
          Cluster catalogs
        </Link>{' '}
        / {catalog} /{' '}
        <Link className="text-sky-700 underline" href={packageHref}>
          {title}
        </Link>{' '}
        / Install
      </nav>
      <div>
        <h1 className="text-2xl font-bold [overflow-wrap:anywhere]">Install {title} with OLM v1</h1>
        <p className="text-sm text-slate-600">
          As a ClusterExtension from ClusterCatalog {catalog}; operator-controller installs it with the ServiceAccount
          chosen here.
        </p>
      </div>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-8 lg:grid-cols-[26rem_minmax(0,1fr)]">
        <form className="space-y-5" onSubmit={(e) => e.preventDefault()} aria-label="Install choices">
          <WhereFields value={where} onChange={setWhere} />
          <fieldset className="space-y-1 text-sm">
            <legend className="font-medium">Channels</legend>
            <p className="text-xs text-slate-600">
              None chosen: v1 considers every version in any channel (it has no default channel).
            </p>
            {(answer?.package.channels ?? []).map((c) => (
              <label key={c.name} className="flex min-h-7 items-center gap-2">
                <input
                  type="checkbox"
                  className="h-5 w-5"
                  checked={channels.includes(c.name)}
                  onChange={() =>
                    setChannels(
                      channels.includes(c.name) ? channels.filter((x) => x !== c.name) : [...channels, c.name],
                    )
                  }
                />
                {c.name}
                {c.name === answer?.package.defaultChannel ? ' (the catalog’s default)' : ''}
                {c.deprecation ? ' (deprecated)' : ''}
              </label>
            ))}
          </fieldset>
          <VersionFields
            value={effectiveVersion}
            onChange={setVersion}
            versions={shownVersions}
            resolution={plan?.resolution}
            stale={stale}
            failed={!!planned.error}
          />
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-0.5 h-5 w-5 shrink-0"
              checked={onlyThisCatalog}
              onChange={(e) => setOnly(e.target.checked)}
            />
            <span>
              <span className="font-medium">Only from ClusterCatalog {catalog}</span>
              <span className="block text-xs text-slate-600">
                Otherwise v1 looks in every catalog; where several have the package, the higher priority wins, and equal
                priorities are an error.
              </span>
            </span>
          </label>
          <fieldset className="space-y-1 text-sm">
            <legend className="font-medium">Upgrade constraint policy</legend>
            <label className="flex items-start gap-2">
              <input
                type="radio"
                name="policy"
                className="mt-0.5 h-5 w-5 shrink-0"
                checked={policy === 'CatalogProvided'}
                onChange={() => setPolicy('CatalogProvided')}
              />
              <span>
                CatalogProvided: later versions only along the catalog&apos;s upgrade edges (replaces, skips,
                skipRange).
              </span>
            </label>
            <label className="flex items-start gap-2">
              <input
                type="radio"
                name="policy"
                className="mt-0.5 h-5 w-5 shrink-0"
                checked={policy === 'SelfCertified'}
                onChange={() => setPolicy('SelfCertified')}
              />
              <span>
                SelfCertified: any version the version field allows, downgrades included; nobody checks the upgrade is
                safe.
              </span>
            </label>
          </fieldset>
        </form>

        <section aria-labelledby="plan-title" className="min-w-0 space-y-3">
          <h2 id="plan-title" className="text-lg font-semibold">
            What the install will do
          </h2>
          {planned.error && <ErrorNotice error={planned.error} what="The install could not be planned" />}
          {body && !plan && !planned.error && <p role="status">Planning…</p>}
          {plan && stale && (
            <p role="status" className="text-sm text-slate-600">
              Recomputing the plan for your latest choices…
            </p>
          )}
          {plan && <PlanPreview plan={plan} />}
          {plan && <PlanExtras plan={plan} name={where.name} />}
          {plan && !('error' in plan.resolution) && (
            <OperatorBrings
              olm="v1"
              level={3}
              folded
              url={bringsUrl(v1PackageApiBase(plan.resolution.catalog, pkg), { version: plan.resolution.bundle })}
            />
          )}
          {install.error && <ErrorNotice error={install.error} what="The install failed" />}
          <div className="flex flex-wrap items-center gap-3">
            <button
              type="button"
              disabled={!!cannot || stale || install.isPending}
              onClick={() => body && install.mutate(body)}
              aria-describedby={cannot ? 'install-cannot' : undefined}
              className="rounded bg-sky-700 px-5 py-2 font-semibold text-white hover:bg-sky-800 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-600"
            >
              {install.isPending ? 'Installing…' : 'Install'}
            </button>
            {cannot && (
              <p id="install-cannot" className="text-sm text-slate-700">
                Install is unavailable: {cannot}.
              </p>
            )}
          </div>
        </section>
      </div>
    </article>
  );
}
