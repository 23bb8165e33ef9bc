import { createServer, Socket, type Server } from 'node:net';

/** A TCP relay to a server that a test can cut (the server unreachable: connections refused and dropped) and restore. */
export interface TcpRelay {
  /** The relay's `host:port`. */
  address: string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** Relays connections on an ephemeral loopback port to `host:port`. */
export async function tcpRelay(host: string, port: number): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = new Socket();
    upstream.connect(port, host);
    client.pipe(upstream).pipe(client);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: relayPort } = server.address() as { port: number };
  return {
    address: `127.0.0.1:${relayPort}`,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    close: () => new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
