import net from 'node:net';

/**
 * A TCP relay in front of a real service (S3, PostgreSQL), so a test can make that service
 * vanish for one server only — `cut()` drops every connection and refuses new ones — and come
 * back on the same port with `restore()`, without disturbing tests that share the service.
 * `onForward` sees every byte sent to the service (to wait until something reached it).
 */
export async function tcpProxy(target: { host: string; port: number }, onForward?: (bytes: Buffer) => void) {
  const sockets = new Set<net.Socket>();
  const make = () =>
    net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      sockets.add(client).add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      if (onForward) client.on('data', onForward);
      client.pipe(upstream).pipe(client);
    });
  let server = make();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    async cut() {
      await new Promise<void>((r) => {
        server.close(() => r());
        for (const s of sockets) s.destroy();
        sockets.clear();
      });
    },
    async restore() {
      server = make();
      await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
