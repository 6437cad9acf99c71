/**
 * npm run docs: the API designer's loop. Serves the Redoc pages on http://127.0.0.1:8088
 * (DOCS_PORT, or --port). On a save under openapi/ (or of redocly.yaml):
 *
 *   1. the surfaces whose files changed are bundled again in this process, and their open
 *      pages reload showing it (scripts/docs-preview.ts: a second or two, bench "designer loop");
 *   2. those surfaces are linted with redocly.yaml's rules, the problems printed and shown on
 *      the pages (npm run lint stays the reference: it also runs Spectral on the bundles);
 *   3. generated/ (or --out) is rebuilt by `npm run generate` in a child process once the saves
 *      pause, so types, samples and pages there catch up without holding the pages back.
 *
 * A save that does not bundle (a YAML error, a broken $ref) keeps the last good pages and
 * shows the error on them until the next save.
 *
 *   npm run docs [-- --port N] [-- --out DIR] [-- --contract DIR]
 *     --out DIR       build into DIR instead of generated/
 *     --contract DIR  preview the redocly.yaml and openapi/ of DIR (a copy of the contract, as
 *                     the bench edits): its pages are served, generated/ is not rebuilt from it
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { watch as watchFiles } from 'chokidar';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { indexPage } from './docs-pages.ts';
import { createPreview, previewPage, type Surface } from './docs-preview.ts';
import { regenerate, surfaces } from './generate.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { port: { type: 'string' }, out: { type: 'string' }, contract: { type: 'string' } } });
const port = Number(values.port ?? process.env.DOCS_PORT ?? 8088);
const target = resolve(values.out ?? join(root, 'generated'));
const contract = resolve(values.contract ?? root);
const generates = contract === root;
const shownTarget = target.startsWith(`${root}/`) ? relative(root, target) : target;

/** Each open page listens here (Server-Sent Events) for `reload`, `failed` and `lint`. */
const listeners = new Set<http.ServerResponse>();
const tell = (event: 'reload' | 'failed' | 'lint', data: unknown = '') => {
  for (const listener of listeners) listener.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
};

/** The page's script: reload when its surface (or any, for the index) was rebuilt; show failures and lint problems. */
const liveReload = (page: string) => `<script>
(() => {
  const page = ${JSON.stringify(page)};
  const events = new EventSource('/_docs/events');
  events.addEventListener('reload', (e) => {
    if (page === 'index' || JSON.parse(e.data).includes(page)) location.reload();
  });
  const show = (heading, text) => {
    let banner = document.getElementById('docs-build-failed');
    if (!banner) {
      banner = document.createElement('pre');
      banner.id = 'docs-build-failed';
      banner.setAttribute('role', 'alert');
      banner.style.cssText = 'position:fixed;z-index:9999;left:0;right:0;bottom:0;max-height:40vh;overflow:auto;margin:0;padding:1em;background:#fff0f0;color:#5c0000;border-top:3px solid #a00;font:13px monospace;white-space:pre-wrap';
      document.body.append(banner);
    }
    banner.textContent = heading + '\\n\\n' + text;
  };
  events.addEventListener('failed', (e) => show('The build failed; these pages are the last good ones.', JSON.parse(e.data)));
  events.addEventListener('lint', (e) => {
    const problems = JSON.parse(e.data).filter((line) => page === 'index' || line.startsWith(page + ':'));
    if (problems.length > 0) show('redocly lint finds problems in the saved contract:', problems.join('\\n'));
  });
})();
</script>`;

if (!surfaces.every((s) => existsSync(join(target, 'docs', `${s}.html`)))) {
  console.log(`docs: building ${shownTarget} first (npm run generate)`);
  regenerate({ target });
}
const preview = await createPreview(contract);

let pending = new Set<string>();
let building: Promise<void> | undefined;
/** One preview build at a time; the files saved meanwhile make one more after it. */
function build(file: string) {
  pending.add(file);
  building ??= (async () => {
    while (pending.size > 0) {
      // A short pause lets an editor finish writing the files of one save.
      await new Promise((done) => setTimeout(done, 30));
      const files = [...pending];
      pending = new Set();
      await rebuild(files);
    }
    building = undefined;
  })();
  return building;
}

/** The last save did not bundle: the pages show its error until a save that does. */
let failed = false;
async function rebuild(files: string[]) {
  const started = performance.now();
  const what = `a change to ${files.map((f) => relative(contract, f)).join(', ')}`;
  try {
    const config = files.includes(join(contract, 'redocly.yaml'));
    if (config) await preview.reloadConfig();
    const touched: Surface[] = [];
    for (const surface of new Set(files.flatMap((f) => preview.affected(f)))) if ((await preview.rebuild(surface)) || config || failed) touched.push(surface);
    failed = false;
    // A save that changes no bundle (a comment, the same bytes again) changes no page and nothing in generated/.
    if (touched.length === 0) return void console.log(`docs: nothing to rebuild after ${what}: the bundles are as they were`);
    console.log(`docs: ${touched.join(', ')} rebuilt after ${what} in ${Math.round(performance.now() - started)} ms`);
    tell('reload', touched);
    const problems = (await Promise.all(touched.map((s) => preview.lint(s)))).flat();
    if (problems.length > 0) console.error(`docs: lint after ${what}:\n  ${problems.join('\n  ')}`);
    tell('lint', problems);
    if (generates) scheduleGenerate();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`docs: the build failed after ${what}: ${message}`);
    failed = true;
    tell('failed', message);
  }
}

let generating: ChildProcess | undefined;
let generateAgain = false;
let quiet: NodeJS.Timeout | undefined;
/** `npm run generate --out target` once the saves pause for a moment; a save during a run makes one more after it. */
function scheduleGenerate() {
  clearTimeout(quiet);
  quiet = setTimeout(() => {
    if (generating) return void (generateAgain = true);
    const started = performance.now();
    console.log(`docs: rebuilding ${shownTarget} (npm run generate) in the background`);
    generating = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'generate.ts'), '--out', target], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    generating.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
    generating.once('exit', (code) => {
      generating = undefined;
      if (code === 0) console.log(`docs: ${shownTarget} rebuilt in ${Math.round(performance.now() - started)} ms`);
      else console.error(`docs: npm run generate failed (exit ${code}); generated/ is as it was:\n${log}`);
      if (generateAgain) {
        generateAgain = false;
        scheduleGenerate();
      }
    });
  }, 1000);
}

async function page(name: string): Promise<string | undefined> {
  if (name === 'index') return indexPage(surfaces.map((surface) => ({ surface, document: preview.document(surface) as Parameters<typeof indexPage>[0][number]['document'] })), 'Served by npm run docs');
  // The guides and the workflows' pages, as npm run generate last wrote them (it runs on each save).
  if (!(surfaces as readonly string[]).includes(name)) return readFile(join(target, 'docs', `${name}.html`), 'utf8');
  return previewPage(await readFile(join(target, 'docs', `${name}.html`), 'utf8'), preview.document(name as Surface));
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
  const name = /^\/(?:((?:workflows\/)?[A-Za-z0-9]+)\.html)?$/.exec(path)?.[1] ?? (path === '/' ? 'index' : undefined);
  const html = name ? await page(name).catch(() => undefined) : undefined;
  if (!name || html === undefined) return void res.writeHead(404).end();
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(html.replace(/<\/body>(?![\s\S]*<\/body>)/, `${liveReload(name)}</body>`));
});

/**
 * The contract's YAML: openapi/'s READMEs and the like change no page. chokidar rather than
 * fs.watch: Node 20's recursive watch on Linux loses a file an editor saves by renaming a new
 * copy over it, and sees no save of it after the first.
 */
const isContract = (file: string) => /\.(ya?ml|json)$/.test(file);
const watcher = watchFiles([join(contract, 'openapi'), join(contract, 'redocly.yaml')], { ignoreInitial: true }).on('all', (event, file) => {
  if (event !== 'addDir' && event !== 'unlinkDir' && isContract(file)) void build(resolve(file));
});
// Listening once the watcher has read the tree: a save from then on is seen.
watcher.once('ready', () => {
  server.listen(port, '127.0.0.1', () => {
    console.log(`docs: serving the pages of ${contract} on http://127.0.0.1:${(server.address() as AddressInfo).port}/ (rebuilt on every save under openapi/)`);
  });
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    generating?.kill('SIGTERM');
    process.exit(0);
  });
}
