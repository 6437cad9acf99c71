/**
 * A loopback HTTP listener that counts the TCP connections it accepts: proof of whether the
 * service connected at all, which matters more than what it was answered. It listens on `::`,
 * so 127.0.0.1 and ::1 both reach it, and answers every request with `answer`. An https
 * client fails its TLS handshake here, but its connection is counted all the same. And a
 * resolver that answers what a test says, for names that would resolve there.
 */
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Resolve } from '../../server/shared/outbound.ts';

/** A resolver that answers `addresses` for every name, as a rebinding DNS server would. */
export const answering = (...addresses: string[]): Resolve => (_hostname, _options, callback) =>
  callback(null, addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })));

export class CountingListener {
  connections = 0;
  answer = { status: 200, body: '{}' };
  port = 0;
  private server = http.createServer((_req, res) => {
    res.writeHead(this.answer.status, { 'Content-Type': 'application/json' });
    res.end(this.answer.body);
  });

  static async start(): Promise<CountingListener> {
    const listener = new CountingListener();
    listener.server.on('connection', () => {
      listener.connections += 1;
    });
    await new Promise<void>((resolve) => listener.server.listen(0, '::', resolve));
    listener.port = (listener.server.address() as AddressInfo).port;
    return listener;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
