/**
 * The HTTP server of an Express app: its requests and responses are made with the app's own
 * prototypes (`app.request`, `app.response`) from the start, and an idle connection stays
 * open as long as partners' clients and proxies expect (`idleConnectionMs`).
 *
 * Express 5 gives each request and response those prototypes as it arrives, with
 * Object.setPrototypeOf in `app.handle` (expressjs/express#5998). V8 handles an object whose
 * prototype changes after it is made slowly, and it kept what each request allocated alive
 * into the old generation (`node --trace-gc-nvp`). Made here with those prototypes, a request
 * and its response already have them, so Express's step changes nothing. It holds the floor
 * "≥ 2× Prism mock on every throughput scenario" (bench/README.md, the audit).
 */
import { createServer, IncomingMessage, ServerResponse, type Server, type ServerOptions } from 'node:http';
import type { Express } from 'express';

/**
 * How long an idle keep-alive connection stays open. Node closes one after 5 s, while the
 * clients and proxies partners put in front of the API keep theirs longer (load balancers
 * commonly 60 s, Go's transport 90 s): a request sent on a connection the server has just
 * closed fails with ECONNRESET, and most clients do not retry it. The server therefore
 * outlasts the common 60 s, and says so in its `Keep-Alive` header, which clients that read
 * it (undici, Node's fetch) follow.
 */
export const idleConnectionMs = 65_000;

export function createHttpServer(app: Express, options: ServerOptions = {}): Server {
  const server = createServer(
    { ...options, IncomingMessage: madeWith(IncomingMessage, app.request), ServerResponse: madeWith(ServerResponse, app.response) },
    app,
  );
  server.keepAliveTimeout = idleConnectionMs;
  return server;
}

/**
 * A constructor of `base`'s objects whose prototype is `prototype` (which descends from base's)
 * from the start. Node's IncomingMessage and ServerResponse are ES5 constructors, and this
 * extends them the way Node extends its own (`Base.call(this, …)`). A class cannot take an
 * existing object as its prototype, and Reflect.construct with such a target made V8 build a
 * new hidden class for every object.
 */
function madeWith<T extends typeof IncomingMessage | typeof ServerResponse>(base: T, prototype: object): T {
  function made(this: object, ...args: unknown[]) {
    Function.prototype.apply.call(base, this, args);
  }
  made.prototype = prototype;
  return made as unknown as T;
}
