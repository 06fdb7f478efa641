// kubectl will not send a bearer token over plain HTTP, so the sandbox serves HTTPS with a
// self-signed certificate for 127.0.0.1/localhost, made once with openssl and kept beside the
// kubeconfig (whose certificate-authority-data trusts exactly this certificate).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TlsFiles {
  key: string;
  cert: string;
}

export function ensureServingCert(dir: string): TlsFiles {
  const keyFile = join(dir, 'serving.key');
  const certFile = join(dir, 'serving.crt');
  if (!existsSync(keyFile) || !existsSync(certFile)) {
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          keyFile,
          '-out',
          certFile,
          '-days',
          '3650',
          '-subj',
          '/CN=olm-sandbox',
          '-addext',
          'subjectAltName=IP:127.0.0.1,DNS:localhost',
          '-addext',
          'basicConstraints=critical,CA:TRUE',
        ],
        { stdio: 'pipe' },
      );
    } catch (err) {
      const e = err as NodeJS.ErrnoException & { stderr?: Buffer };
      throw new Error(
        e.code === 'ENOENT'
          ? 'the sandbox needs the openssl command to make its TLS certificate (apt-get install openssl)'
          : `openssl failed: ${e.stderr?.toString() ?? e.message}`,
      );
    }
  }
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
}
