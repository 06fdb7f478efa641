// A loopback port for a child process to listen on later (etcd, kube-apiserver, a console server).
// Asking the kernel for port 0 hands out a port from its ephemeral range, the same range it draws
// the source ports of outgoing connections from: with a fleet of clusters starting at once, an
// outgoing connection took a port between our check and etcd's bind ("address already in use",
// seen in CI). So the port is drawn at random below that range, where the kernel never picks one
// by itself, and checked free by binding it; ports already handed out by this process are skipped.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const LOWEST = 10_000;
const handedOut = new Set<number>();

/** The first port of the kernel's ephemeral range (Linux), or the IANA one elsewhere. */
function ephemeralStart(): number {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(first) && first > LOWEST + 1000) return first;
  } catch {
    // Not Linux: fall through.
  }
  return 49_152;
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A port on 127.0.0.1 nobody listens on now, outside the kernel's ephemeral range. */
export async function freePort(): Promise<number> {
  const end = ephemeralStart();
  for (let i = 0; i < 200; i++) {
    const port = LOWEST + Math.floor(Math.random() * (end - LOWEST));
    if (handedOut.has(port)) continue;
    if (await bindable(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port found between ${LOWEST} and ${end} after 200 tries`);
}
