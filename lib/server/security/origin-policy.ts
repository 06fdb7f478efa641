// Which Host a request may name and which Origin a write may come from. Both come from what the
// administrator configured (the public URL, the port the console listens on), never from the
// request's own headers: a DNS-rebinding page sends its own name as Host, and anyone can send
// X-Forwarded-*. Those headers are believed only behind a proxy the administrator says is there.

export interface OriginPolicy {
  /** The console's public origin (`--public-url`), when it is served under a name. */
  publicOrigin?: string;
  /** The port the console listens on: loopback names at this port are always accepted. */
  port?: number;
  /** Believe X-Forwarded-Host / -Proto / -For (a proxy the administrator runs sets them). */
  trustProxy: boolean;
  /** Other origins the administrator allows (comma-separated `OLM_CONSOLE_ALLOWED_ORIGINS`). */
  extraOrigins: string[];
}

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

export function originPolicyFromEnv(env: Record<string, string | undefined> = process.env): OriginPolicy {
  const port = Number(env.OLM_CONSOLE_PORT);
  return {
    publicOrigin: env.OLM_CONSOLE_PUBLIC_URL ? new URL(env.OLM_CONSOLE_PUBLIC_URL).origin : undefined,
    port: Number.isInteger(port) && port > 0 ? port : undefined,
    trustProxy: env.OLM_CONSOLE_TRUST_PROXY === 'true',
    extraOrigins: (env.OLM_CONSOLE_ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => new URL(s).origin),
  };
}

/** Origins a page of this console can have. */
export function allowedOrigins(p: OriginPolicy): Set<string> {
  const out = new Set<string>(p.extraOrigins);
  if (p.publicOrigin) out.add(p.publicOrigin);
  if (p.port) for (const h of LOOPBACK) for (const s of ['http', 'https']) out.add(`${s}://${h}:${p.port}`);
  return out;
}

/** Host header values (host[:port], lower case) this console answers to. */
export function allowedHosts(p: OriginPolicy): Set<string> {
  const out = new Set<string>();
  for (const o of allowedOrigins(p)) {
    const u = new URL(o);
    out.add(u.host.toLowerCase());
    // A browser omits the default port from Host.
    if (!u.port) out.add(`${u.hostname}:${u.protocol === 'https:' ? 443 : 80}`.toLowerCase());
  }
  return out;
}

export interface HostFacts {
  host?: string | null;
  forwardedHost?: string | null;
}

/** The host the browser used: the proxy's X-Forwarded-Host when trusted, else Host. */
export function effectiveHost(p: OriginPolicy, h: HostFacts): string | undefined {
  const v = (p.trustProxy && h.forwardedHost ? h.forwardedHost.split(',')[0] : h.host) ?? undefined;
  return v?.trim().toLowerCase() || undefined;
}

export type HostVerdict = { ok: true } | { ok: false; message: string };

export function checkHost(p: OriginPolicy, h: HostFacts): HostVerdict {
  const host = effectiveHost(p, h);
  if (!host) return { ok: false, message: 'the request names no Host' };
  if (allowedHosts(p).has(host)) return { ok: true };
  const names = [...allowedHosts(p)].filter(
    (x) => !/:(80|443)$/.test(x) || !allowedHosts(p).has(x.replace(/:(80|443)$/, '')),
  );
  return {
    ok: false,
    message: `this console does not answer to host "${host}"; it is served as ${names.join(', ') || '(no name configured)'} (set --public-url to serve it under another name)`,
  };
}

/** Whether the browser reached the console over TLS (a trusted proxy says so, or the public URL is https and was used). */
export function servedOverTls(
  p: OriginPolicy,
  h: HostFacts & { forwardedProto?: string | null; url?: string },
): boolean {
  if (h.url && new URL(h.url).protocol === 'https:') return true;
  if (p.trustProxy && h.forwardedProto) return h.forwardedProto.split(',')[0]!.trim() === 'https';
  if (p.publicOrigin?.startsWith('https://')) return effectiveHost(p, h) === new URL(p.publicOrigin).host;
  return false;
}
