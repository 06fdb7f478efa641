// A load balancer in front of console replicas, as a Kubernetes Service is: each request goes to
// the first replica that accepts the connection, so a replica that stops listening (SIGTERM)
// gets no new requests and its clients reconnect to the next.
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';

export interface Balancer {
  url: string;
  /** `<replica index> <method> <path>` per request, in the order they were answered. */
  served: string[];
  close(): Promise<void>;
}

export function startBalancer(port: number, replicas: string[]): Promise<Balancer> {
  const served: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const tryReplica = (i: number) => {
        if (i >= replicas.length) {
          res.writeHead(503, { 'content-type': 'text/plain' });
          res.end('no replica accepts connections\n');
          return;
        }
        const target = new URL(replicas[i]!);
        const headers: IncomingHttpHeaders = { ...req.headers };
        const up = request(
          { host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent: false },
          (answer) => {
            served.push(`${i} ${req.method} ${req.url}`);
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        up.on('error', () => (res.headersSent ? res.destroy() : tryReplica(i + 1)));
        res.on('close', () => up.destroy());
        up.end(body);
      };
      tryReplica(0);
    });
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${port}`,
        served,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}
