// Starting a throwaway sandbox for a test file: its own kubeconfig folder, a free port.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox, type SandboxOptions } from '../server/sandbox';

export async function withSandbox(
  opts: SandboxOptions = {},
): Promise<Sandbox & { dir: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'olm-sandbox-test-'));
  const sb = await startSandbox({ port: 0, kubeconfigPath: join(dir, 'kubeconfig'), ...opts });
  return {
    ...sb,
    dir,
    close: async () => {
      await sb.whenQuiet(150, 3_000);
      await sb.stop();
      rmSync(dir, { recursive: true, force: true });
      // The emulation's own writes must pass its API server's checks (schemas, RBAC, conflicts
      // aside, which a controller retries): an error here is a sandbox bug no assertion saw.
      const errors = [
        ...sb.olm.controllerErrors,
        ...sb.olmV1.controllerErrors,
        ...sb.workloads.controllerErrors,
      ].filter((e) => !/the object has been modified/.test(e));
      if (errors.length)
        throw new Error(
          `the sandbox's OLM controllers failed ${errors.length} time(s): ${[...new Set(errors)].slice(0, 5).join('; ')}`,
        );
    },
  };
}
