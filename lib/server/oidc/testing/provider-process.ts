// For tests: the real cluster's identity provider (scripts/oidc-provider.ts) as a process of its
// own on a throwaway folder, and a sign-in through its login form done with plain HTTP requests
// (a cookie jar of a few lines), so the code flow can be tested without a browser or a cluster.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchWithCa } from '../fetch-with-ca';

const root = join(import.meta.dirname, '..', '..', '..', '..');

export interface ProviderProcess {
  issuer: string;
  dir: string;
  caPem: string;
  clientId: string;
  clientSecret: string;
  passwords: Record<string, string>;
  /** The OLM_CONSOLE_OIDC_* environment a console would get. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startProvider(idTokenSeconds = 60): Promise<ProviderProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'olm-console-oidc-'));
  const script = join(root, 'scripts', 'oidc-provider.ts');
  const args = ['--import', 'tsx', script, '--dir', dir, '--id-token-ttl', String(idTokenSeconds)];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d));
  child.stderr!.on('data', (d: Buffer) => (output += d));
  const issuer = await new Promise<string>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`no issuer in 30 s:\n${output}`)), 30_000);
    child.stdout!.on('data', () => {
      const m = /^oidc issuer: (\S+)$/m.exec(output);
      if (!m) return;
      clearTimeout(timer);
      res(m[1]!);
    });
    child.once('exit', (code) => (clearTimeout(timer), rej(new Error(`the provider exited (${code}):\n${output}`))));
  });
  const caPem = readFileSync(join(dir, 'oidc-ca.crt'), 'utf8');
  const users = JSON.parse(readFileSync(join(dir, 'oidc-users.json'), 'utf8')) as { name: string; password: string }[];
  return {
    issuer,
    dir,
    caPem,
    clientId: 'olm-console',
    clientSecret: readFileSync(join(dir, 'oidc-client-secret'), 'utf8').trim(),
    passwords: Object.fromEntries(users.map((u) => [u.name, u.password])),
    env: {
      OLM_CONSOLE_OIDC_ISSUER: issuer,
      OLM_CONSOLE_OIDC_CLIENT_ID: 'olm-console',
      OLM_CONSOLE_OIDC_CLIENT_SECRET_FILE: join(dir, 'oidc-client-secret'),
      OLM_CONSOLE_OIDC_CA_FILE: join(dir, 'oidc-ca.crt'),
    },
    stop: async () => {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Follows `authUrl` through the provider's login form as `user` (as a browser would, with
 * its cookies), and returns the URL the provider redirects back to: the console's callback.
 */
export async function signInOverHttp(p: ProviderProcess, authUrl: URL, user: string, password: string): Promise<URL> {
  const fetch = fetchWithCa(p.caPem);
  const jar = new Map<string, string>();
  const go = async (url: string, method = 'GET', body?: string): Promise<string> => {
    const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (body) headers['content-type'] = 'application/x-www-form-urlencoded';
    const r = await fetch(url, { method, headers, body });
    for (const c of r.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, ...v] = pair!.split('=');
      jar.set(k!.trim(), v.join('='));
    }
    await r.arrayBuffer();
    const location = r.headers.get('location');
    if (r.status >= 300 && r.status < 400 && location) return new URL(location, url).href;
    if (r.status !== 200) throw new Error(`${method} ${url}: ${r.status}`);
    return url;
  };
  let at = authUrl.href;
  for (let hops = 0; hops < 20; hops++) {
    if (!at.startsWith(p.issuer)) return new URL(at);
    const next = await go(at);
    if (next === at) {
      // The login form: post the credentials to it.
      at = await go(`${at}/login`, 'POST', new URLSearchParams({ login: user, password }).toString());
    } else at = next;
  }
  throw new Error('the sign-in did not come back to the console');
}
