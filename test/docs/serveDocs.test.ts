/**
 * `npm run docs` as an API designer uses it: the pages are served, and saving a file under
 * openapi/ rebuilds the pages it touches, lints them, and tells the open pages to reload. It
 * previews a copy of the contract (--contract), which the test edits; generated/ is left alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchBrowser } from '../support/browser.ts';
import { root } from '../support/documents.ts';
import { eventually, testBudget, waitBudget } from '../support/wait.ts';

/** Saves as many editors do: a new file renamed over the old one. */
function save(file: string, text: string) {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

describe('npm run docs', () => {
  const contract = mkdtempSync(join(tmpdir(), 'ramp-docs-contract-'));
  cpSync(join(root, 'openapi'), join(contract, 'openapi'), { recursive: true });
  cpSync(join(root, 'redocly.yaml'), join(contract, 'redocly.yaml'));
  const health = join(contract, 'openapi', 'paths', 'v2', 'health.yaml');
  const original = readFileSync(health, 'utf8');
  let child: ChildProcess;
  const output: string[] = [];
  let base = '';
  let events = '';
  let stream: ReadableStreamDefaultReader<Uint8Array>;

  beforeAll(async () => {
    child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'serve-docs.ts'), '--port', '0', '--contract', contract], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const s of [child.stdout!, child.stderr!]) s.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n')));
    base = await eventually(() => /serving .* on (http:\/\/127\.0\.0\.1:\d+)\//.exec(output.join('\n'))?.[1], waitBudget, 'the docs server to listen');
    stream = (await fetch(`${base}/_docs/events`)).body!.getReader();
    void (async () => {
      for (;;) {
        const { value, done } = await stream.read();
        if (done) return;
        events += new TextDecoder().decode(value);
      }
    })();
  }, testBudget);
  afterAll(async () => {
    await stream?.cancel();
    child?.kill('SIGTERM');
    rmSync(contract, { recursive: true, force: true });
  });

  /** The first event of that name, after the ones seen so far, whose data `accept` takes. */
  const nextEvent = (name: string, accept: (data: unknown) => boolean = () => true) => {
    const seen = events.length;
    const find = () => [...events.slice(seen).matchAll(new RegExp(`event: ${name}\\ndata: (.*)\\n`, 'g'))].map((m) => JSON.parse(m[1]!) as unknown).find(accept);
    return () => eventually(find, waitBudget, `a ${name} event`);
  };

  it('serves the index and every surface page, each listening for a rebuild', async () => {
    const index = await fetch(`${base}/`);
    expect(index.status).toBe(200);
    const indexHtml = await index.text();
    const links = [...indexHtml.matchAll(/href="\.\/([a-z0-9]+)\.html" data-surface=/g)].map((m) => m[1]);
    expect(links).toEqual(['v1', 'v2', 'lookup', 'auth']);
    // The guides and the workflows' pages are served as generated.
    for (const [, other] of indexHtml.matchAll(/href="\.\/((?:workflows\/)?[A-Za-z0-9]+)\.html"(?! data-surface)/g)) {
      expect((await fetch(`${base}/${other}.html`)).status, other).toBe(200);
    }
    for (const surface of links) {
      const page = await fetch(`${base}/${surface}.html`);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain('__redoc_definition');
      expect(html).toContain("new EventSource('/_docs/events')");
    }
    expect((await fetch(`${base}/../package.json`)).status).toBe(404);
    expect((await fetch(`${base}/nothing.html`)).status).toBe(404);
  });

  it('shows each save on the pages of the surface it belongs to, and reloads them', async () => {
    // Twice: Node's own recursive watcher saw a renamed-over file's first save only.
    for (const word of ['first', 'second']) {
      const reload = nextEvent('reload');
      save(health, original.replace('summary: Check that the service is ready', `summary: Check that the service is ready (${word} save)`));
      expect(await reload()).toEqual(['v2']);
      expect(await (await fetch(`${base}/v2.html`)).text()).toContain(`(${word} save)`);
    }
    expect(output.join('\n')).toMatch(/docs: v2 rebuilt after a change to openapi\/paths\/v2\/health\.yaml/);
  }, testBudget);

  it.skipIf(!browserAvailable)('renders the saved text in the browser (Redoc in the page, from the new definition)', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${base}/v2.html`);
      await page.waitForFunction(() => document.body.textContent?.includes('(second save)'), undefined, { timeout: waitBudget });
    } finally {
      await browser.close();
    }
  }, testBudget);

  it('lints the saved surface with redocly.yaml rules and shows the problems', async () => {
    // The previous save's lint may come after this one starts: the problems of this save are awaited.
    const lint = nextEvent('lint', (problems) => (problems as string[]).length > 0);
    save(health, original.replace(/^  x-provenance: designed\n/m, ''));
    expect(((await lint()) as string[]).join('\n')).toMatch(/^v2: error rule\/provenance-on-operations: .*health\.yaml/m);
  }, testBudget);

  it('keeps the last good pages when a save does not bundle, and says why', async () => {
    const failed = nextEvent('failed');
    save(health, `${original}\nbroken: [\n`);
    expect(await failed()).toMatch(/health\.yaml/);
    expect((await fetch(`${base}/v2.html`)).status).toBe(200);
    const reload = nextEvent('reload');
    save(health, original);
    expect(await reload()).toEqual(['v2']);
  }, testBudget);
});
