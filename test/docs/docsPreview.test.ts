/**
 * `npm run docs`'s fast path (scripts/docs-preview.ts) shows what `npm run generate` would
 * publish: its in-process bundles, with their code samples, are the generated bundles, and a
 * preview page is the built Redoc page with the new definition, rendered in the browser.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { addCodeSamples } from '../../scripts/code-samples.ts';
import { createPreview, previewPage, type Preview } from '../../scripts/docs-preview.ts';
import { root, surfaces } from '../support/documents.ts';
import { testBudget } from '../support/wait.ts';

describe('the docs preview', () => {
  let preview: Preview;
  const work = mkdtempSync(join(tmpdir(), 'ramp-preview-'));
  beforeAll(async () => {
    preview = await createPreview(root);
  }, testBudget);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  // Against the CLI run now rather than generated/, which another change may have left stale (check:generated's matter).
  it.each(surfaces)('bundles %s as npm run generate does (Redocly CLI, then the code samples)', (surface) => {
    const out = join(work, `${surface}.yaml`);
    execFileSync(join(root, 'node_modules', '.bin', 'redocly'), ['bundle', surface, '-o', out], { cwd: root, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, stdio: 'ignore' });
    expect(preview.document(surface)).toEqual(addCodeSamples(parse(readFileSync(out, 'utf8'))));
  }, testBudget);

  it('knows which surfaces a file belongs to', () => {
    expect(preview.affected(join(root, 'openapi', 'paths', 'v2', 'health.yaml'))).toEqual(['v2']);
    expect(preview.affected(join(root, 'openapi', 'v1.yaml'))).toEqual(['v1']);
    expect(preview.affected(join(root, 'redocly.yaml'))).toEqual(surfaces);
  });

  it('puts the new definition in the built page, rendered in the browser', () => {
    const built = readFileSync(join(root, 'generated', 'docs', 'lookup.html'), 'utf8');
    const page = previewPage(built, { openapi: '3.1.0', info: { title: 'A </script> title', version: '1' }, paths: {} });
    // Checked as booleans: the page is megabytes of script, too long for a failure message.
    expect(page.includes('const __redoc_definition = {"openapi":"3.1.0","info":{"title":"A \\u003c/script> title"')).toBe(true);
    expect(page.includes("init(__redoc_definition, __redoc_options, document.getElementById('redoc'))")).toBe(true);
    // The old definition's server-rendered markup is gone: Redoc renders the new one.
    expect(page.slice(page.indexOf('<div id="redoc">'), page.indexOf('<script type="module">'))).toBe('<div id="redoc"></div>\n      ');
  });
});
