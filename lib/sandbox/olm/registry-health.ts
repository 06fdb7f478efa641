// The health check OLM runs against a CatalogSource's registry address (grpc.health.v1), for
// sources the sandbox does not serve itself.
import * as grpc from '@grpc/grpc-js';
import { registryServices } from '../registry/registry-server';

let healthService: grpc.ServiceClientConstructor | undefined;

/** grpc.health.v1 Check against an address: true when it answers SERVING within 3 s. */
export function healthCheck(address: string): Promise<boolean> {
  healthService ??= registryServices().Health;
  const client = new healthService(address, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    (
      client as unknown as {
        Check: (req: unknown, opts: grpc.CallOptions, cb: (err: unknown, res: { status?: string }) => void) => void;
      }
    ).Check({ service: '' }, { deadline: Date.now() + 3000 }, (err, res) => {
      client.close();
      resolve(!err && res?.status === 'SERVING');
    });
  });
}
