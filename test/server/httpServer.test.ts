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
import { createHttpServer, idleConnectionMs } from '../../server/http/server.ts';
import { start } from '../../server/main.ts';
import { newSeedKey } from '../support/process.ts';

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
      // Express's own request API on objects Node made: the app, a header, the query.
      res.json({ app: req.app === app, host: req.get('host'), query: req.query });
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
      expect(await answer.json()).toEqual({ app: true, host: new URL(url).host, query: { a: path.slice(-1) } });
    }
    const closed = await fetch(`${url}/hello?a=3`, { headers: { connection: 'close' } });
    expect(await closed.json()).toEqual({ app: true, host: new URL(url).host, query: { a: '3' } });
    expect(made).toHaveLength(3);
    for (const one of made) expect(one).toEqual({ request: true, response: true, nodeRequest: true, nodeResponse: true });
  });

  it('is the server npm start runs: Express finds every request and response with its prototypes already', async () => {
    const running = await start({ PORT: '0', RAMP_DATA_DIR: ':memory:', RAMP_SEED_API_KEY: newSeedKey(), LOG_LEVEL: 'silent' });
    try {
      // Each request's prototypes when Node has made it, and after Express's listener ran.
      const seen: { made: object[]; afterExpress: object[] }[] = [];
      running.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => seen.push({ made: [Object.getPrototypeOf(req), Object.getPrototypeOf(res)], afterExpress: [] }));
      running.server.on('request', (req: IncomingMessage, res: ServerResponse) => seen.at(-1)!.afterExpress.push(Object.getPrototypeOf(req), Object.getPrototypeOf(res)));
      for (const path of ['/lookup/country-codes', '/lookup/tokens/cost']) expect((await fetch(`http://127.0.0.1:${running.port}${path}`)).status).toBe(200);
      expect(seen).toHaveLength(2);
      for (const { made, afterExpress } of seen) {
        expect(afterExpress).toHaveLength(2);
        expect(afterExpress[0]).toBe(made[0]);
        expect(afterExpress[1]).toBe(made[1]);
        expect(made[0]).not.toBe(IncomingMessage.prototype);
        expect(made[1]).not.toBe(ServerResponse.prototype);
      }
    } finally {
      await running.stop();
    }
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

  it('keeps an idle connection open past the 60 s of common proxies, and says so to the client', async () => {
    const running = await start({ PORT: '0', RAMP_DATA_DIR: ':memory:', RAMP_SEED_API_KEY: newSeedKey(), LOG_LEVEL: 'silent' });
    try {
      const answer = await fetch(`http://127.0.0.1:${running.port}/lookup/country-codes`);
      expect(answer.status).toBe(200);
      // What a client that reuses connections reads: how long this one will stay open idle.
      expect(answer.headers.get('keep-alive')).toBe(`timeout=${idleConnectionMs / 1000}`);
      expect(idleConnectionMs).toBeGreaterThan(60_000);
      expect(running.server.keepAliveTimeout).toBe(idleConnectionMs);
    } finally {
      await running.stop();
    }
  });

  it('passes the deadlines main.ts sets on to Node', async () => {
    const { server } = await listening(express(), { headersTimeout: 1234, requestTimeout: 5678 });
    expect(server.headersTimeout).toBe(1234);
    expect(server.requestTimeout).toBe(5678);
  });
});
