// Whether objects a test let go of are really gone: a copy of a person's credentials held past
// their sign-out is a finding, and only a full garbage collection tells. Node runs tests without
// --expose-gc, so the flag is set here and `gc` taken from a fresh context.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Whether nothing reachable holds these any more, after full collections between turns. */
export async function collected(refs: readonly WeakRef<object>[]): Promise<boolean> {
  // A WeakRef's target stays alive until the current job ends: collect between turns.
  for (let i = 0; i < 10 && refs.some((r) => r.deref()); i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return refs.every((r) => r.deref() === undefined);
}
