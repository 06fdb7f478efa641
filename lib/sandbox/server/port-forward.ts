// The pods/portforward subresource over WebSockets, as the API server and kubelet speak it
// (subprotocol `v4.channel.k8s.io`, `?ports=P`): every binary message starts with a channel
// byte, channel 2i carries port i's data and 2i+1 its errors, and each channel's first message
// from the server is the port number (2 bytes, little endian). The sandbox has no kubelet: a pod
// it runs itself (a catalog's registry) names the loopback port that stands for its container port.
import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

export const PORT_FORWARD_PROTOCOL = 'v4.channel.k8s.io';

/** Where a pod's container port really listens, or why it cannot be reached. */
export type ForwardTarget = { port: number } | { error: string };

const wss = new WebSocketServer({
  noServer: true,
  handleProtocols: (protocols) => (protocols.has(PORT_FORWARD_PROTOCOL) ? PORT_FORWARD_PROTOCOL : false),
});

/** Answers an upgrade that cannot go on with a Kubernetes Status, the way the API server does. */
export function refuseUpgrade(socket: Duplex, code: number, reason: string, message: string): void {
  const body = JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
  });
  socket.end(
    `HTTP/1.1 ${code} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function portHeader(channel: number, port: number): Buffer {
  const b = Buffer.alloc(3);
  b[0] = channel;
  b.writeUInt16LE(port, 1);
  return b;
}

/** Completes the WebSocket handshake and joins the stream to `target.port` on the loopback. */
export function acceptPortForward(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  port: number,
  target: number,
): void {
  if (
    !String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .includes(PORT_FORWARD_PROTOCOL)
  ) {
    return refuseUpgrade(
      socket,
      400,
      'BadRequest',
      `port forwarding needs the WebSocket subprotocol ${PORT_FORWARD_PROTOCOL}`,
    );
  }
  wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
    ws.send(portHeader(0, port));
    ws.send(portHeader(1, port));
    const tcp = connect(target, '127.0.0.1');
    tcp.on('data', (d) => ws.send(Buffer.concat([Buffer.from([0]), d])));
    tcp.on('error', (err) => {
      if (ws.readyState === ws.OPEN)
        ws.send(Buffer.concat([Buffer.from([1]), Buffer.from(`error forwarding port ${port}: ${err.message}`)]));
      ws.close();
    });
    tcp.on('close', () => ws.close());
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary || data.length === 0) return;
      // Only the data channel carries bytes for the pod; a client never writes to the error one.
      if (data[0] === 0 && data.length > 1) tcp.write(data.subarray(1));
    });
    ws.on('close', () => tcp.destroy());
    ws.on('error', () => tcp.destroy());
  });
}
