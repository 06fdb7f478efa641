// Running the real kubectl against a test's sandbox. kubectl is not an npm package: where it is
// missing, `kubectlPath` is undefined and the suites that need it skip with that reason.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

export const kubectlPath = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((p) => existsSync(p));

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function kubectl(kubeconfig: string, args: string[], stdin?: string): Promise<KubectlResult> {
  return new Promise((resolve) => {
    const child = execFile(
      kubectlPath!,
      ['--kubeconfig', kubeconfig, ...args],
      { timeout: 30_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
    if (stdin !== undefined) {
      child.stdin?.write(stdin);
      child.stdin?.end();
    }
  });
}
