// Stopping one of the sandbox's HTTPS servers so that it does stop. server.close() waits for every
// connection to end, and closeAllConnections() cuts only the ones HTTP tracks, which a connection
// joins once its TLS handshake is over; an upgraded one (a port-forward, an exec) has left that
// list. A test file's process once waited half an hour in the API server's stop, held by one idle
// keep-alive connection whose TCP socket was still open after closeAllConnections() had run (read
// through the inspector of the live process; why it survived is not proven). So every TCP socket
// is kept from its accept and cut, again every 200 ms until the server has closed.
import type { Server } from 'node:https';
import type { Socket } from 'node:net';

/** Starts keeping `server`'s connections; the function returned stops it, cutting them all. */
export function closingCuts(server: Server): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  return async () => {
    const closed = new Promise<void>((r) => server.close(() => r()));
    const cut = () => {
      server.closeAllConnections();
      for (const s of sockets) s.destroy();
    };
    cut();
    const again = setInterval(cut, 200);
    await closed;
    clearInterval(again);
  };
}
