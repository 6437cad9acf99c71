/**
 * npm run docs: the API designer's loop. Serves the Redoc pages of generated/docs on
 * http://127.0.0.1:8088 (DOCS_PORT, or --port), rebuilds generated/ (npm run generate) each
 * time a file under openapi/ is saved, and reloads the open pages when the build is done. A
 * build that fails (a YAML error, a broken $ref) keeps the last good pages and shows the
 * error on them until the next save.
 *
 *   npm run docs [-- --port N] [-- --out DIR]   (--out: build into DIR instead of generated/)
 */
import { watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { regenerate } from './generate.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { port: { type: 'string' }, out: { type: 'string' } } });
const port = Number(values.port ?? process.env.DOCS_PORT ?? 8088);
const target = resolve(values.out ?? join(root, 'generated'));
const pages = join(target, 'docs');

/** Each open page listens here (Server-Sent Events) for `reload` and `failed`. */
const listeners = new Set<http.ServerResponse>();
const tell = (event: 'reload' | 'failed', data = '') => {
  for (const listener of listeners) listener.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
};

const liveReload = `<script>
(() => {
  const events = new EventSource('/_docs/events');
  events.addEventListener('reload', () => location.reload());
  events.addEventListener('failed', (e) => {
    let banner = document.getElementById('docs-build-failed');
    if (!banner) {
      banner = document.createElement('pre');
      banner.id = 'docs-build-failed';
      banner.setAttribute('role', 'alert');
      banner.style.cssText = 'position:fixed;z-index:9999;left:0;right:0;bottom:0;max-height:40vh;overflow:auto;margin:0;padding:1em;background:#fff0f0;color:#5c0000;border-top:3px solid #a00;font:13px monospace;white-space:pre-wrap';
      document.body.append(banner);
    }
    banner.textContent = 'The build failed; these pages are the last good ones.\\n\\n' + JSON.parse(e.data);
  });
})();
</script>`;

let building: Promise<void> | undefined;
let again = false;
/** One build at a time; saves during a build make one more build after it. */
function build(reason: string) {
  if (building) {
    again = true;
    return building;
  }
  building = (async () => {
    do {
      again = false;
      const started = Date.now();
      try {
        // A short pause lets an editor finish writing the files of one save.
        await new Promise((done) => setTimeout(done, 100));
        regenerate({ target });
        console.log(`docs: rebuilt after ${reason} in ${Date.now() - started} ms`);
        tell('reload');
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        console.error(`docs: the build failed after ${reason}: ${message}`);
        tell('failed', message);
      }
    } while (again);
    building = undefined;
  })();
  return building;
}

const server = http.createServer(async (req, res) => {
  const path = new URL(req.url ?? '/', 'http://docs').pathname;
  if (path === '/_docs/events') {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
    res.write(': connected\n\n');
    listeners.add(res);
    req.once('close', () => listeners.delete(res));
    return;
  }
  const file = normalize(join(pages, path === '/' ? 'index.html' : path));
  if (!file.startsWith(pages) || !file.endsWith('.html')) return void res.writeHead(404).end();
  try {
    const html = await readFile(file, 'utf8');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(html.replace(/<\/body>(?![\s\S]*<\/body>)/, `${liveReload}</body>`));
  } catch {
    res.writeHead(404).end();
  }
});

await build('start');
watch(join(root, 'openapi'), { recursive: true }, (_event, name) => void build(`a change to openapi/${name ?? ''}`));
server.listen(port, '127.0.0.1', () => {
  console.log(`docs: serving ${pages} on http://127.0.0.1:${(server.address() as AddressInfo).port}/ (rebuilt on every save under openapi/)`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(0));
