/**
 * server/http/server.ts, the HTTP server main.ts, the tests' servers and the bench's bare
 * Express 5 run: each request and response is made with the Express app's own prototypes, so
 * Express's per-request Object.setPrototypeOf finds them in place. What that saves is measured
 * by npm run bench, not timed here.
 */
import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../server/http/server.ts';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function listening(app: express.Express, options?: Parameters<typeof createHttpServer>[1]) {
  server = createHttpServer(app, options).listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('createHttpServer', () => {
  it("makes each request and response with the app's prototypes before Express sees them", async () => {
    const app = express();
    app.get('/hello', (req, res) => {
      res.json({ app: req.app === app, host: req.get('host'), query: req.query, prototypes: Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response });
    });
    const { server, url } = await listening(app);
    // Runs before Express's own listener, when Node has just made the two objects.
    const made: Record<string, boolean>[] = [];
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      made.push({
        request: Object.getPrototypeOf(req) === app.request,
        response: Object.getPrototypeOf(res) === app.response,
        nodeRequest: req instanceof IncomingMessage,
        nodeResponse: res instanceof ServerResponse,
      });
    });
    // Two on one kept-alive connection and one on another: every request, not only the first.
    for (const path of ['/hello?a=1', '/hello?a=2']) {
      const answer = await fetch(url + path);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await answer.json()).toEqual({ app: true, host: new URL(url).host, query: { a: path.slice(-1) }, prototypes: true });
    }
    const closed = await fetch(`${url}/hello`, { headers: { connection: 'close' } });
    expect((await closed.json()) as unknown).toMatchObject({ prototypes: true });
    expect(made).toHaveLength(3);
    for (const one of made) expect(one).toEqual({ request: true, response: true, nodeRequest: true, nodeResponse: true });
  });

  it("keeps Node's answers of its own: an unknown route is Express's 404, a malformed request Node's 400", async () => {
    const { url, server } = await listening(express());
    expect((await fetch(`${url}/nowhere`)).status).toBe(404);
    const raw = await new Promise<string>((resolve) => {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('close', () => resolve(text));
      socket.end('GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n');
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('passes the deadlines main.ts sets on to Node', async () => {
    const { server } = await listening(express(), { headersTimeout: 1234, requestTimeout: 5678 });
    expect(server.headersTimeout).toBe(1234);
    expect(server.requestTimeout).toBe(5678);
  });
});
