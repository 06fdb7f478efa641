// What the console's server process does with its command line, shared by the two ways it is
// run: from a checkout (`npm start` → main.ts under tsx) and from the runtime folder the
// container image copies (`node server.mjs`, built from runtime.ts). Both take `npm start`'s
// cluster flags and the same environment; only the sandbox, which needs the checkout, is
// `npm start`'s alone.
import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import { oidcEnv, planStart } from '../../../scripts/start-options';
import { captureConsoleOutput } from '../../observability/console-capture';
import { logFormat } from '../../observability/logger';
import { consoleIdentityClient } from '../context';
import { consoleNamespace } from '../session-revocation';
import { sharedSessionKey } from '../session-key-secret';
import { startConsoleServer } from './console-server';

export const serveUsage = `usage: node server.mjs [--port N] [--host ADDR] [--kubeconfig PATH] [--context NAME]
                      [--in-cluster] [--per-user-tokens] [--public-url URL] [--trust-proxy]
                      [--oidc-issuer URL --oidc-client-id ID [--oidc-client-secret-file PATH] [--oidc-ca-file PATH]]

  The flags mean what they mean for \`npm start\` (docs/running.md), and the environment
  variables they set may be given instead (OLM_CONSOLE_IN_CLUSTER=true, OLM_CONSOLE_KUBECONFIG,
  OLM_CONSOLE_PUBLIC_URL, …). With no cluster named, $KUBECONFIG is used.`;

export type ServePlan =
  { ok: false; message: string } | { ok: true; port: number; host: string; env: Record<string, string> };

const CLUSTER_ENV = ['OLM_CONSOLE_KUBECONFIG', 'OLM_CONSOLE_IN_CLUSTER'];

/** The port, address and environment these arguments and this environment ask for. */
export function planServe(argv: string[], env: Record<string, string | undefined>): ServePlan {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string', default: env.OLM_CONSOLE_PORT ?? '3000' },
        host: { type: 'string', default: env.OLM_CONSOLE_HOST ?? '127.0.0.1' },
        kubeconfig: { type: 'string' },
        context: { type: 'string' },
        'in-cluster': { type: 'boolean', default: false },
        'per-user-tokens': { type: 'boolean', default: false },
        'public-url': { type: 'string' },
        'trust-proxy': { type: 'boolean', default: false },
        'oidc-issuer': { type: 'string' },
        'oidc-client-id': { type: 'string' },
        'oidc-client-secret-file': { type: 'string' },
        'oidc-ca-file': { type: 'string' },
        sandbox: { type: 'boolean', default: false },
        catalog: { type: 'string', multiple: true, default: [] },
      },
    }));
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  if (values.sandbox || values.catalog.length)
    return {
      ok: false,
      message:
        'the sandbox cluster runs from a checkout (`npm start`); this server serves an existing cluster: give --kubeconfig, --in-cluster or $KUBECONFIG',
    };
  const named =
    values.kubeconfig !== undefined ||
    values['in-cluster'] ||
    values.context !== undefined ||
    values['per-user-tokens'];
  // Already configured by the environment (npm start, or a Deployment's env): keep it as given.
  if (!named && CLUSTER_ENV.some((k) => env[k])) {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      return { ok: false, message: `--port must be a number between 1 and 65535, got "${values.port}"` };
    const extra: Record<string, string> = { OLM_CONSOLE_PORT: String(port) };
    if (values['public-url']) extra.OLM_CONSOLE_PUBLIC_URL = new URL(values['public-url']).origin;
    if (values['trust-proxy']) extra.OLM_CONSOLE_TRUST_PROXY = 'true';
    const oidc = oidcEnv({
      oidcIssuer: values['oidc-issuer'],
      oidcClientId: values['oidc-client-id'],
      oidcClientSecretFile: values['oidc-client-secret-file'],
      oidcCaFile: values['oidc-ca-file'],
    });
    if (!oidc.ok) return oidc;
    return { ok: true, port, host: values.host, env: { ...extra, ...oidc.env } };
  }
  const plan = planStart(
    {
      port: values.port,
      host: values.host,
      kubeconfig: values.kubeconfig,
      context: values.context,
      inCluster: values['in-cluster'],
      perUserTokens: values['per-user-tokens'],
      sandbox: false,
      catalog: [],
      publicUrl: values['public-url'],
      trustProxy: values['trust-proxy'],
      oidcIssuer: values['oidc-issuer'],
      oidcClientId: values['oidc-client-id'],
      oidcClientSecretFile: values['oidc-client-secret-file'],
      oidcCaFile: values['oidc-ca-file'],
    },
    env.KUBECONFIG,
  );
  if (!plan.ok) return plan;
  if (plan.sandbox)
    return {
      ok: false,
      message: 'no cluster given: use --kubeconfig PATH, --in-cluster (in a pod), or set KUBECONFIG',
    };
  return { ok: true, port: Number(plan.env.OLM_CONSOLE_PORT), host: values.host, env: plan.env };
}

/** Starts the console on the Next.js build in `dir` and stops it gracefully on SIGTERM/SIGINT. */
export async function serve(dir: string, argv: string[], log: Logger): Promise<void> {
  const plan = planServe(argv, process.env);
  if (!plan.ok) {
    process.stderr.write(`${plan.message}\n\n${serveUsage}\n`);
    process.exit(2);
  }
  Object.assign(process.env, plan.env);
  if (logFormat() === 'json') captureConsoleOutput(log);
  // Deployed (deploy/base): the key every replica shares, kept in a Secret of the console's namespace.
  const secret = process.env.OLM_CONSOLE_SESSION_SECRET;
  if (secret && !process.env.OLM_CONSOLE_SESSION_KEY) {
    process.env.OLM_CONSOLE_SESSION_KEY = await sharedSessionKey(consoleIdentityClient(), consoleNamespace(), secret);
    log.info({ secret: `${consoleNamespace()}/${secret}` }, 'session key read from the cluster');
  }
  const running = await startConsoleServer({ dir, port: plan.port, host: plan.host, log });
  log.info({ url: running.url }, `console listening on ${running.url}`);
  const grace = Number(process.env.OLM_CONSOLE_SHUTDOWN_GRACE_SECONDS ?? 20) * 1000;
  const stop = (signal: string) => {
    log.info({ signal }, 'stopping');
    setTimeout(() => process.exit(0), grace + 5_000).unref();
    void running.close(grace).then(() => process.exit(0));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
