/**
 * A bare Express 5 route per scenario answering the captured bytes: the same framework,
 * body parser, settings and HTTP server as server/app.ts and server/main.ts, without the
 * contract or the handlers.
 */
import express from 'express';
import { createHttpServer } from '../../server/http/server.ts';
import { port, readFixtures } from './fixtures.ts';

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(express.json({ limit: '256kb', type: ['application/json', 'application/*+json'] }));
for (const fixture of readFixtures()) {
  const route = (_req: express.Request, res: express.Response) => {
    res.status(fixture.status).type(fixture.contentType).send(fixture.bytes);
  };
  if (fixture.method === 'GET') app.get(fixture.expressPath, route);
  else app.post(fixture.expressPath, route);
}
createHttpServer(app).listen(port(), '127.0.0.1');
