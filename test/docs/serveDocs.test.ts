/**
 * `npm run docs` as an API designer uses it: the pages are served, and saving a file under
 * openapi/ rebuilds them and tells every open page to reload.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../support/documents.ts';
import { eventually, waitBudget } from '../support/wait.ts';

describe('npm run docs', () => {
  const out = mkdtempSync(join(tmpdir(), 'ramp-docs-'));
  let child: ChildProcess;
  const output: string[] = [];
  let base = '';

  beforeAll(async () => {
    child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'serve-docs.ts'), '--port', '0', '--out', out], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n')));
    base = await eventually(() => /serving .* on (http:\/\/127\.0\.0\.1:\d+)\//.exec(output.join('\n'))?.[1], waitBudget, 'the docs server to listen');
  });
  afterAll(() => {
    child?.kill('SIGTERM');
    rmSync(out, { recursive: true, force: true });
  });

  it('serves the index and every surface page, each listening for a rebuild', async () => {
    const index = await fetch(`${base}/`);
    expect(index.status).toBe(200);
    const links = [...(await index.text()).matchAll(/href="\.\/([a-z0-9]+)\.html"/g)].map((m) => m[1]);
    expect(links).toEqual(['v1', 'v2', 'lookup', 'auth']);
    for (const surface of links) {
      const page = await fetch(`${base}/${surface}.html`);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain('redoc');
      expect(html).toContain("new EventSource('/_docs/events')");
    }
    expect((await fetch(`${base}/../package.json`)).status).toBe(404);
  });

  it('rebuilds on a save under openapi/ and tells the open pages to reload', async () => {
    const events = await fetch(`${base}/_docs/events`);
    const reader = events.body!.getReader();
    // A save that changes no byte still fires the watcher, and leaves the contract as it is.
    const file = join(root, 'openapi', 'v2.yaml');
    const { atime, mtime } = statSync(file);
    utimesSync(file, atime, new Date());
    utimesSync(file, atime, mtime);
    let received = '';
    while (!received.includes('event: reload')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the event stream ended before a reload:\n${received}`);
      received += new TextDecoder().decode(value);
    }
    await reader.cancel();
    expect(output.join('\n')).toMatch(/docs: rebuilt after a change to openapi\/v2\.yaml/);
  });
});
