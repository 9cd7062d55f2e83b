/**
 * A TCP proxy in front of the test PostgreSQL server that a test can take down and bring back:
 * "the database goes away" (every connection cut, new ones refused) without stopping the server
 * the other test files share.
 */
import net from 'node:net';

export interface TcpProxy {
  /** `url` with its host and port replaced by the proxy's. */
  urlThrough: (url: string) => string;
  /** Cuts every connection and refuses new ones. */
  down: () => Promise<void>;
  /** Accepts connections again (same port). */
  up: () => Promise<void>;
  close: () => Promise<void>;
}

export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const instance = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      instance.once('error', reject);
      instance.listen(port, '127.0.0.1', () => {
        port = (instance.address() as net.AddressInfo).port;
        server = instance;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });

  await listen();
  return {
    urlThrough: (url) => {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(port);
      return through.toString();
    },
    down: stop,
    up: listen,
    close: stop,
  };
}
