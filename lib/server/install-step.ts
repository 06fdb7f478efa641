// One step of an install, named in the error when it fails for good.
import { KubeError } from '../k8s/errors';
import { ApiError } from './api-error';

/**
 * One step of an install, named in the error when it fails for good (lib/k8s has already sent
 * it again after transient failures): the Kubernetes code and reason are kept, the message says
 * what the install was doing ("listing the OperatorGroups in namespace x failed: …").
 */
export async function step<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof KubeError)
      throw new ApiError(err.code, err.reason, `${what} failed: ${err.message}`, {
        step: what,
        ...(err.details === undefined ? {} : { status: err.details }),
      });
    throw err;
  }
}
