/**
 * The network between a test server and its PostgreSQL server, which a test can cut: a TCP
 * relay on loopback whose `cut()` resets every open connection and refuses new ones, as a
 * failover or a partition does, and whose `restore()` lets them through again. The server
 * meets the real driver's errors (ECONNRESET, "Connection terminated unexpectedly",
 * ECONNREFUSED) without the PostgreSQL server itself stopping under the other tests.
 */
import net from 'node:net';
import { startTestServer, type TestServer } from './server.ts';
import { freshPostgresDatabase } from './storage.ts';

export interface DatabaseLink {
  /** `databaseUrl` with its host and port replaced by the relay's. */
  url: string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function databaseLink(databaseUrl: string): Promise<DatabaseLink> {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  let open = true;
  const relay = net.createServer((client) => {
    // While cut, a connection is refused at once (an RST), as by a server that is not there.
    if (!open) return void client.resetAndDestroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((relay.address() as net.AddressInfo).port);
  const cut = () => {
    open = false;
    for (const socket of sockets) socket.resetAndDestroy();
  };
  return {
    url: url.toString(),
    cut,
    restore: () => {
      open = true;
    },
    close: async () => {
      cut();
      await new Promise((resolve) => relay.close(resolve));
    },
  };
}

/** A test server on a fresh database of the PostgreSQL server at `adminUrl`, reached through a link the test can cut. */
export async function startServerBehindLink(adminUrl: string): Promise<{ server: TestServer; link: DatabaseLink; close(): Promise<void> }> {
  const database = await freshPostgresDatabase(adminUrl, 'ramp_outage');
  const link = await databaseLink(database.url);
  const server = await startTestServer({ databaseUrl: link.url });
  return {
    server,
    link,
    async close() {
      await server.close();
      await link.close();
      await database.drop();
    },
  };
}
