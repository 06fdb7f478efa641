// What the real cluster's identity provider and kube-apiserver agree on (`npm run cluster -- --oidc`):
// the provider's CA and serving certificate, the seed users with their passwords and groups, the
// console's client, kube-apiserver's AuthenticationConfiguration and the RBAC for the groups.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCa, signedCertificate } from './certificates';

export const OIDC_CLIENT_ID = 'olm-console';
/** Usernames and groups from the provider, as kube-apiserver names them (never a seed user's name). */
export const OIDC_PREFIX = 'oidc:';

export interface OidcSeedUser {
  name: string;
  password: string;
  groups: string[];
}

/** The provider's own CA (oidc-ca.crt) and its certificate for 127.0.0.1 and localhost, made once per folder. */
export function oidcCertificates(dir: string): void {
  const p = (n: string) => join(dir, n);
  if (existsSync(p('oidc-ca.crt')) && existsSync(p('oidc-server.crt'))) return;
  makeCa(dir, 'oidc-ca', 'olm-console-oidc-ca');
  const ext = 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n';
  signedCertificate(dir, 'oidc-server', 'oidc-ca', '/CN=olm-console-oidc', ext);
}

/**
 * The seed users (alice: team1-admins, bob: viewers) with random passwords, and the console's
 * client secret: made once per folder, in oidc-users.json and oidc-client-secret (mode 600).
 */
export function oidcSeed(dir: string): { users: OidcSeedUser[]; clientSecret: string } {
  const usersFile = join(dir, 'oidc-users.json');
  const secretFile = join(dir, 'oidc-client-secret');
  if (!existsSync(usersFile)) {
    const users: OidcSeedUser[] = [
      { name: 'alice', password: randomBytes(9).toString('base64url'), groups: ['team1-admins'] },
      { name: 'bob', password: randomBytes(9).toString('base64url'), groups: ['viewers'] },
    ];
    writeFileSync(usersFile, JSON.stringify(users, null, 2) + '\n', { mode: 0o600 });
  }
  if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(24).toString('base64url'), { mode: 0o600 });
  const users = JSON.parse(readFileSync(usersFile, 'utf8')) as OidcSeedUser[];
  return { users, clientSecret: readFileSync(secretFile, 'utf8').trim() };
}

/**
 * kube-apiserver's `--authentication-config` (apiserver.config.k8s.io/v1, Kubernetes 1.34's
 * AuthenticationConfiguration): the provider's ID tokens for the console's client, user `oidc:<sub>`,
 * groups `oidc:<group>`. JSON is YAML, and kube-apiserver refuses fields it does not know.
 */
export function authenticationConfiguration(issuer: string, caPem: string): string {
  return (
    JSON.stringify(
      {
        apiVersion: 'apiserver.config.k8s.io/v1',
        kind: 'AuthenticationConfiguration',
        jwt: [
          {
            issuer: { url: issuer, audiences: [OIDC_CLIENT_ID], certificateAuthority: caPem },
            claimMappings: {
              username: { claim: 'sub', prefix: OIDC_PREFIX },
              groups: { claim: 'groups', prefix: OIDC_PREFIX },
            },
          },
        ],
      },
      null,
      2,
    ) + '\n'
  );
}

/** RBAC as the seed users have it, for the provider's groups: team1-admins administer team1, viewers view. */
export function oidcRbacYaml(): string {
  type Kind = 'RoleBinding' | 'ClusterRoleBinding';
  const binding = (kind: Kind, name: string, role: string, group: string, namespace?: string) =>
    [
      'apiVersion: rbac.authorization.k8s.io/v1',
      `kind: ${kind}`,
      'metadata:',
      `  name: ${name}`,
      ...(namespace ? [`  namespace: ${namespace}`] : []),
      'roleRef:',
      '  apiGroup: rbac.authorization.k8s.io',
      '  kind: ClusterRole',
      `  name: ${role}`,
      'subjects:',
      '- apiGroup: rbac.authorization.k8s.io',
      '  kind: Group',
      `  name: "${OIDC_PREFIX}${group}"`,
    ].join('\n');
  return [
    binding('RoleBinding', 'seed:oidc-team1-admins', 'admin', 'team1-admins', 'team1'),
    binding('ClusterRoleBinding', 'seed:oidc-viewers', 'view', 'viewers'),
  ].join('\n---\n');
}
