// A process that outlives its parent just long enough to notice its end: it is told each child's
// pid on its stdin, and when that pipe closes without a clean stop (the parent was killed, even by
// SIGKILL), it stops them: SIGTERM, then SIGKILL 10 s later. A clean stop kills it first.
import { spawn, type ChildProcess } from 'node:child_process';

export function startWatchdog(): ChildProcess {
  const w = spawn(
    'sh',
    [
      '-c',
      'pids=; while read -r p; do pids="$pids $p"; done; [ -z "$pids" ] && exit 0; kill -TERM $pids 2>/dev/null; sleep 10; kill -KILL $pids 2>/dev/null; exit 0',
    ],
    { stdio: ['pipe', 'ignore', 'ignore'], detached: true },
  );
  w.unref();
  return w;
}
