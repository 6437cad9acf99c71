/** The ceiling on this machine: node:http answering the captured bytes, nothing else. */
import { createServer } from 'node:http';
import { port, readFixtures } from './fixtures.ts';

const fixtures = readFixtures();

createServer((req, res) => {
  const path = req.url!.split('?', 1)[0]!;
  const fixture = fixtures.find((f) => f.method === req.method && f.pattern.test(path));
  // Read the request body to its end, as any server must, before answering.
  req.resume();
  req.once('end', () => {
    if (!fixture) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(fixture.status, { 'content-type': fixture.contentType, 'content-length': fixture.bytes.length });
    res.end(fixture.bytes);
  });
}).listen(port(), '127.0.0.1');
