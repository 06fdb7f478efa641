// Port-forwarding to a pod through the API server, as the person: a local TCP listener on the
// loopback whose every connection is one `pods/<name>/portforward` WebSocket (subprotocol
// `v4.channel.k8s.io`: a channel byte before each message, data on channel 0, errors on 1, and
// the port number as each channel's first message). Used to reach a catalog's registry gRPC API
// when its in-cluster address is not reachable from the console.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import WebSocket from 'ws';
import { errorFromNetwork, errorFromResponse } from './errors';
import { buildUrl } from './http';

export const PORT_FORWARD_PROTOCOL = 'v4.channel.k8s.io';

export interface LocalForward {
  /** `127.0.0.1:<port>`: connect here to reach the pod's port. */
  address: string;
  /** When a connection last went through, for closing forwards nobody uses. */
  lastUsed: number;
  /** How many connections are open through it now: closing it would cut them. */
  openConnections(): number;
  /** True once it was ended or closed: it takes no connection any more. */
  readonly ended: boolean;
  /**
   * Stops listening (a new connection is refused) and forgets the credentials it was made with;
   * the connections open through it finish on the streams they have. For the person's sign-out.
   */
  end(): Promise<void>;
  /** Ends it and cuts the connections open through it too. */
  close(): Promise<void>;
}

/** An open stream, with what arrived before anyone read it (the port headers come at once). */
interface Stream {
  ws: WebSocket;
  early: Buffer[];
  hold: (d: Buffer) => void;
}

async function openSocket(kc: KubeConfig, namespace: string, pod: string, port: number): Promise<Stream> {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw errorFromResponse(500, undefined, 'the kubeconfig has no current cluster');
  const url = buildUrl(
    server,
    `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/portforward`,
    { ports: port },
  );
  const opts: https.RequestOptions = { headers: {} };
  await kc.applyToHTTPSOptions(opts);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(url, [PORT_FORWARD_PROTOCOL], {
    headers: opts.headers as Record<string, string>,
    ca: opts.ca,
    cert: opts.cert,
    key: opts.key,
    pfx: opts.pfx,
    passphrase: opts.passphrase,
    rejectUnauthorized: opts.rejectUnauthorized,
    agent: opts.agent as https.Agent | undefined,
    handshakeTimeout: 10_000,
  });
  return new Promise((resolve, reject) => {
    // A refusal (403, 404) comes back as an HTTP answer with a Kubernetes Status.
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        reject(
          errorFromResponse(res.statusCode ?? 500, body, text || `port-forward to pod ${namespace}/${pod} refused`),
        );
      });
    });
    const early: Buffer[] = [];
    const hold = (d: Buffer) => early.push(d);
    ws.on('message', hold);
    ws.once('open', () => resolve({ ws, early, hold }));
    ws.once('error', (err) => reject(errorFromNetwork(err as NodeJS.ErrnoException, server)));
  });
}

/** Joins one local connection to one port-forward stream. */
function pipe(sock: Socket, { ws, early, hold }: Stream): void {
  const seen = new Set<number>();
  const receive = (data: Buffer) => {
    if (data.length === 0) return;
    const channel = data[0]!;
    // The first message of each channel only names the port.
    if (!seen.has(channel)) {
      seen.add(channel);
      return;
    }
    if (channel === 0) sock.write(data.subarray(1));
    else if (channel === 1 && data.length > 1) sock.destroy(new Error(data.subarray(1).toString('utf8')));
  };
  ws.off('message', hold);
  for (const d of early.splice(0)) receive(d);
  ws.on('message', receive);
  ws.on('close', () => sock.end());
  ws.on('error', (err) => sock.destroy(err));
  sock.on('data', (d: Buffer) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(Buffer.concat([Buffer.from([0]), d]));
  });
  sock.on('close', () => ws.close());
  sock.on('error', () => ws.close());
}

/**
 * Listens on 127.0.0.1 and forwards each connection to `pod`'s `port`, with `kc`'s identity.
 * One stream is opened first, so a refusal (no right to port-forward, no such pod) is an error
 * here, with the API server's reason, rather than a connection reset later.
 */
export async function listenPortForward(
  kc: KubeConfig,
  namespace: string,
  pod: string,
  port: number,
): Promise<LocalForward> {
  // Only this variable holds the credentials once listening: ending the forward clears it, so that
  // nothing here keeps the person's token after they signed out (a stream open already carries
  // its own authenticated connection and needs it no more).
  let creds: KubeConfig | undefined = kc;
  const first = await openSocket(creds, namespace, pod, port);
  let spare: Stream | undefined = first;
  const sockets = new Set<Socket>();
  let ended = false;
  const fwd: LocalForward = {
    address: '',
    lastUsed: Date.now(),
    openConnections: () => sockets.size,
    get ended() {
      return ended;
    },
    end: async () => undefined,
    close: async () => undefined,
  };
  const server: Server = createServer((sock) => {
    if (!creds) {
      sock.destroy();
      return;
    }
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.pause();
    fwd.lastUsed = Date.now();
    const ready =
      spare && spare.ws.readyState === WebSocket.OPEN
        ? Promise.resolve(spare)
        : openSocket(creds, namespace, pod, port);
    spare = undefined;
    ready.then(
      (stream) => {
        pipe(sock, stream);
        sock.resume();
      },
      (err: Error) => sock.destroy(err),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.unref();
  fwd.address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stopped = new Promise<void>((resolve) => server.once('close', () => resolve()));
  fwd.end = () => {
    if (!ended) {
      ended = true;
      creds = undefined;
      spare?.ws.close();
      spare = undefined;
      // Stops listening now; 'close' comes once the connections still open are over.
      server.close();
    }
    return Promise.resolve();
  };
  fwd.close = () => {
    void fwd.end();
    for (const s of sockets) s.destroy();
    return stopped;
  };
  return fwd;
}
