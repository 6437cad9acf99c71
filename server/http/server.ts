/**
 * The HTTP server of an Express app: its requests and responses are made with the app's own
 * prototypes (`app.request`, `app.response`) from the start.
 *
 * Express 5 gives each request and response those prototypes as it arrives, with
 * Object.setPrototypeOf in `app.handle` (expressjs/express#5998). Changing an object's
 * prototype after it is made is slow in V8, and it also kept what each request allocated
 * alive through two young-generation collections. Every scavenge then copied and promoted
 * about 2.5 MB and paused the server for 3 to 10 ms, in a bare Express 5 route as in this
 * server (`node --trace-gc-nvp`). Made here with those prototypes, a request and its response
 * already have them, so Express's step changes nothing. A scavenge then promotes about 10 KB
 * and pauses for under 1 ms, and the sandbox spends 40 to 60 % less CPU on a cheap read
 * (bench/, docs/performance.md).
 */
import { createServer, IncomingMessage, ServerResponse, type Server, type ServerOptions } from 'node:http';
import type { Express } from 'express';

export function createHttpServer(app: Express, options: ServerOptions = {}): Server {
  return createServer(
    { ...options, IncomingMessage: madeWith(IncomingMessage, app.request), ServerResponse: madeWith(ServerResponse, app.response) },
    app,
  );
}

/**
 * A constructor of `base`'s objects whose prototype is `prototype` (which descends from base's)
 * from the start. Node's IncomingMessage and ServerResponse are ES5 constructors, and this
 * extends them the way Node extends its own (`Base.call(this, …)`). A class cannot take an
 * existing object as its prototype. Reflect.construct with such a target made V8 build a new
 * hidden class for every object (30 µs each).
 */
function madeWith<T extends typeof IncomingMessage | typeof ServerResponse>(base: T, prototype: object): T {
  function made(this: object, ...args: unknown[]) {
    Function.prototype.apply.call(base, this, args);
  }
  made.prototype = prototype;
  return made as unknown as T;
}
