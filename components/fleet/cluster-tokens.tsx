'use client';
// Your tokens for the fleet's other clusters, on the Clusters page: when the token you logged in
// with goes to the home cluster only, each other cluster gets a form to add your token for it
// (checked there before it is kept, then sent to that cluster only), and a token added can be
// removed. Shown only where people log in (per-user tokens or an identity provider).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FleetTokenAdded, FleetTokenCluster, FleetTokens } from '@/lib/api/fleet-tokens';
import { ApiClientError, apiGet, apiWrite } from '@/lib/client/api';

const KEY = ['fleet', 'tokens'];

function Problem({ error }: { error: unknown }) {
  const message = error instanceof ApiClientError ? `${error.body.reason}: ${error.message}` : String(error);
  return (
    <p role="alert" className="text-xs text-red-800">
      {message}
    </p>
  );
}

function TokenRow({ cluster, onChange }: { cluster: FleetTokenCluster; onChange: () => void }) {
  const [token, setToken] = useState('');
  const path = `/api/fleet/clusters/${encodeURIComponent(cluster.name)}/token`;
  const add = useMutation({
    // A 401 here is that cluster refusing the token, not the console's session ending: it is the
    // answer to show on the form, kept from the handler that sends a signed-out tab to the login.
    mutationFn: async () => {
      try {
        await apiWrite<FleetTokenAdded>(path, 'POST', { token });
        return undefined;
      } catch (err) {
        if (err instanceof ApiClientError && err.code === 401) return err;
        throw err;
      }
    },
    onSuccess: (refused) => {
      if (refused) return;
      setToken('');
      onChange();
    },
  });
  const addProblem = add.error ?? add.data;
  const remove = useMutation({ mutationFn: () => apiWrite(path, 'DELETE'), onSuccess: onChange });
  const id = `cluster-token-${cluster.name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  return (
    <li className="space-y-1 rounded border border-slate-200 bg-white p-3">
      <p className="font-mono text-sm font-semibold break-all">{cluster.name}</p>
      {cluster.token ? (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span>
            Your token there is <span className="font-mono">{cluster.token.username}</span>, added{' '}
            {new Date(cluster.token.addedAt).toLocaleString()}.
          </span>
          <button
            type="button"
            disabled={remove.isPending}
            onClick={() => remove.mutate()}
            className="rounded border border-slate-400 px-3 py-1 text-sm font-semibold text-slate-800 disabled:text-slate-600"
          >
            Remove token
            <span className="sr-only"> for {cluster.name}</span>
          </button>
          {remove.error && <Problem error={remove.error} />}
        </div>
      ) : (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <label htmlFor={id} className="flex min-w-0 flex-1 flex-col text-sm">
            <span className="font-medium">Your bearer token for {cluster.name}</span>
            <input
              id={id}
              type="password"
              value={token}
              onChange={(e) => setToken(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              className="min-w-0 rounded border border-slate-300 bg-white px-2 py-1.5 font-mono text-xs"
            />
          </label>
          <button
            type="submit"
            disabled={!token.trim() || add.isPending}
            className="rounded bg-sky-700 px-4 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
          >
            Add token
            <span className="sr-only"> for {cluster.name}</span>
          </button>
          {addProblem && <Problem error={addProblem} />}
        </form>
      )}
    </li>
  );
}

function TokenList({ clusters, onChange }: { clusters: FleetTokenCluster[]; onChange: () => void }) {
  return (
    <ul className="mt-2 grid gap-2 md:grid-cols-2">
      {clusters.map((c) => (
        <TokenRow key={c.name} cluster={c} onChange={onChange} />
      ))}
    </ul>
  );
}

export function ClusterTokens({ onChange }: { onChange: () => void }) {
  const client = useQueryClient();
  const q = useQuery({ queryKey: KEY, queryFn: ({ signal }) => apiGet<FleetTokens>('/api/fleet/tokens', signal) });
  if (!q.data?.perUser) return null;
  const others = q.data.clusters.filter((c) => !c.home);
  if (!others.length) return null;
  const home = q.data.clusters.find((c) => c.home)?.name;
  const changed = () => {
    void client.invalidateQueries({ queryKey: KEY });
    onChange();
  };
  return (
    <section aria-labelledby="fleet-tokens-title" className="space-y-2">
      <h2 id="fleet-tokens-title" className="text-lg font-semibold">
        Your tokens for other clusters
      </h2>
      <p className="text-sm text-slate-600">
        {q.data.loginTokenTravels
          ? 'The token you signed in with goes to every cluster. Add a token only for a cluster that does not accept it.'
          : `The token you logged in with goes only to ${home}. Add your own token for another cluster: that cluster checks it first, and it is sent to that cluster only, kept sealed in this browser until you remove it or log out.`}
      </p>
      {q.data.loginTokenTravels ? (
        <details>
          <summary className="cursor-pointer text-sm font-medium">Add a token for a cluster</summary>
          <TokenList clusters={others} onChange={changed} />
        </details>
      ) : (
        <TokenList clusters={others} onChange={changed} />
      )}
    </section>
  );
}
