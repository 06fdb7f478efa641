'use client';
// The namespaces a person can use (`/api/me/namespaces`), with the names they typed remembered
// in this browser per person: a namespace admin who may not list namespaces types hers once, the
// server checks it with an access review, and from then on it is offered (and opened) for her.
// The browser keeps only names; the cluster decides each time whether they are still offered.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { MyNamespacesAnswer } from '@/lib/api/my-namespaces';
import { apiGet } from '@/lib/client/api';
import { useSession } from '@/lib/client/session';

const MAX_REMEMBERED = 20;

function storageKey(username: string): string {
  return `olm-console.namespaces.${username}`;
}

function remembered(username: string): string[] {
  try {
    const raw: unknown = JSON.parse(window.localStorage.getItem(storageKey(username)) ?? '[]');
    // Whatever is stored is checked again by the server; only strings are sent.
    return Array.isArray(raw) ? raw.filter((n): n is string => typeof n === 'string').slice(0, MAX_REMEMBERED) : [];
  } catch {
    return [];
  }
}

/**
 * The names remembered for this person in this browser, for a page that asks other clusters (the
 * fleet's): each cluster checks them again for itself.
 */
export function rememberedNamespaces(username: string): string[] {
  return typeof window === 'undefined' ? [] : remembered(username);
}

function remember(username: string, name: string): void {
  const next = [name, ...remembered(username).filter((n) => n !== name)].slice(0, MAX_REMEMBERED);
  try {
    window.localStorage.setItem(storageKey(username), JSON.stringify(next));
  } catch {
    // Storage refused (private mode, quota): the name is still used now, just not offered next time.
  }
}

function forget(username: string, names: readonly string[]): void {
  const left = remembered(username).filter((n) => !names.includes(n));
  try {
    window.localStorage.setItem(storageKey(username), JSON.stringify(left));
  } catch {
    // As above: nothing is lost but the memory.
  }
}

function path(candidates: readonly string[]): string {
  const q = new URLSearchParams();
  for (const c of candidates) q.append('candidate', c);
  const s = q.toString();
  return `/api/me/namespaces${s ? `?${s}` : ''}`;
}

export interface MyNamespaces {
  data?: MyNamespacesAnswer;
  error: Error | null;
  /**
   * Checks a typed name as the person: when the cluster lets them act there it is remembered and
   * offered from now on; otherwise the answer is the cluster's reason.
   */
  check(name: string): Promise<{ ok: true } | { ok: false; reason: string }>;
}

export function useMyNamespaces(): MyNamespaces {
  const { session } = useSession();
  const who = session ? (session.username ?? '') : undefined;
  const client = useQueryClient();
  const key = ['me', 'namespaces', who ?? ''];
  const q = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const asked = remembered(who!);
      const answer = await apiGet<MyNamespacesAnswer>(path(asked), signal);
      // Names the cluster now refuses (access taken away, namespace deleted) are not asked again.
      forget(
        who!,
        answer.refused.map((r) => r.name),
      );
      return answer;
    },
    // Asked logged out too: its 401 is what takes the person to the login page (the query
    // client's one handler, lib/client/unauthorized.ts). A page waiting on a query that never
    // ran would wait for ever.
    enabled: who !== undefined,
    staleTime: 60_000,
  });
  const check = async (name: string) => {
    const answer = await apiGet<MyNamespacesAnswer>(path([name]));
    const refused = answer.refused.find((r) => r.name === name);
    if (refused || !answer.namespaces.includes(name))
      return { ok: false as const, reason: refused?.reason ?? `you may not work in ${name}` };
    if (answer.source === 'access-reviews') {
      remember(who ?? '', name);
      await client.invalidateQueries({ queryKey: key });
    }
    return { ok: true as const };
  };
  return { data: q.data, error: q.error, check };
}

/**
 * Where a namespaced page opens when the URL names no namespace: every namespace for a person who
 * may read operators in all of them, else the first namespace they can use; null when there is
 * none yet (the chooser then asks for one), undefined while the cluster is being asked.
 */
export function openingNamespace(answer: MyNamespacesAnswer | undefined): string | null | undefined {
  if (!answer) return undefined;
  if (answer.clusterWide) return '';
  return answer.namespaces[0] ?? null;
}
