// The test clusters' certificates, made with Debian's openssl in a data folder: certificate
// authorities and certificates they sign. kube-apiserver, the aggregator, catalogd, the image
// registry and the identity provider each want TLS, and nothing here is meant to outlive the folder.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function openssl(args: string[]): void {
  const r = spawnSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr?.toString() ?? r.error?.message}`);
}

/** A self-signed CA, `<name>.crt` and `<name>.key`. */
export function makeCa(dir: string, name: string, commonName: string): void {
  const p = (n: string) => join(dir, n);
  openssl(
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', p(`${name}.key`), '-out', p(`${name}.crt`)].concat(
      ['-days', '3650', '-subj', `/CN=${commonName}`, '-addext', 'basicConstraints=critical,CA:TRUE'],
      ['-addext', 'keyUsage=critical,keyCertSign,cRLSign,digitalSignature'],
    ),
  );
}

/**
 * A certificate signed by the CA `signer`, with the extensions given in openssl's extfile syntax
 * (`subjectAltName=…`, `extendedKeyUsage=…`). Kept when it was made after its CA with the same
 * extensions, so a folder reused with other names gets one that matches them, and a CA made anew
 * never leaves a certificate of the old one behind.
 */
export function signedCertificate(dir: string, name: string, signer: string, subject: string, ext: string): void {
  const p = (n: string) => join(dir, n);
  const current =
    existsSync(p(`${name}.crt`)) &&
    existsSync(p(`${name}.ext`)) &&
    readFileSync(p(`${name}.ext`), 'utf8') === ext &&
    statSync(p(`${name}.crt`)).mtimeMs >= statSync(p(`${signer}.crt`)).mtimeMs;
  if (current) return;
  writeFileSync(p(`${name}.ext`), ext);
  openssl(
    ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', p(`${name}.key`), '-out', p(`${name}.csr`)].concat([
      '-subj',
      subject,
    ]),
  );
  openssl(
    ['x509', '-req', '-in', p(`${name}.csr`), '-CA', p(`${signer}.crt`), '-CAkey', p(`${signer}.key`)].concat([
      '-CAcreateserial',
      '-out',
      p(`${name}.crt`),
      '-days',
      '3650',
      '-extfile',
      p(`${name}.ext`),
    ]),
  );
}

/** An RSA key pair for signing service-account tokens: `<name>.key`, `<name>.pub`. */
export function signingKeyPair(dir: string, name: string): void {
  const p = (n: string) => join(dir, n);
  openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', p(`${name}.key`)]);
  openssl(['pkey', '-in', p(`${name}.key`), '-pubout', '-out', p(`${name}.pub`)]);
}
