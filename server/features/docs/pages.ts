/**
 * The API reference the service serves at /docs (openapi/paths/v2/docs.yaml, docs_{page}.yaml,
 * docs_workflows_{workflow}.yaml): the landing page, the Redoc pages, the guides and the
 * workflows' pages that `npm run generate` writes to generated/docs/, served as written but for
 * their links to each other. Each Redoc page carries Redoc and its document inline, so the policy
 * admits exactly its own scripts by hash: computed from the file served, and again only when
 * the file changes (a regeneration while the server runs is served at once).
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { consoleCsp } from '../console/assets.ts';
import { contractPath } from '../../shared/contract.ts';
import type { operations } from '../../../generated/types/ramp.ts';

/** generated/docs, found from the contract's path, which the bundled server resolves too. */
export const docsDir = join(dirname(contractPath), '..', 'docs');

/**
 * The console's policy with what Redoc needs, and nothing more: its inline scripts by hash;
 * inline styles (styled-components inserts them at run time and React writes `style`
 * attributes, which no nonce or hash admits); its inlined icons and font (`data:`).
 */
export function docsCsp(scriptHashes: string[]): string {
  const directives = new Map(consoleCsp.split(';').map((d) => d.trim().split(/\s+(.*)/s) as [string, string]));
  directives.set('script-src', scriptHashes.length > 0 ? scriptHashes.map((h) => `'sha256-${h}'`).join(' ') : "'none'");
  directives.set('style-src', "'unsafe-inline'");
  directives.set('img-src', "'self' data:");
  directives.set('font-src', 'data:');
  return [...directives].map(([name, value]) => `${name} ${value}`).join('; ');
}

/** The SHA-256 (base64) of each inline script's text, as CSP hashes it. */
export function inlineScriptHashes(html: string): string[] {
  // Redoc's build escapes every `</script` inside a script, so the first one closes it.
  return [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => createHash('sha256').update(m[1]!).digest('base64'));
}

export interface DocsPage {
  html: string;
  csp: string;
}

const cache = new Map<string, { mtimeMs: number; page: DocsPage }>();

/** A page and its policy, or undefined when it was not generated. */
async function readPage(name: string, shape: (html: string) => string = (html) => html): Promise<DocsPage | undefined> {
  const file = join(docsDir, `${name}.html`);
  const mtimeMs = await stat(file).then((s) => s.mtimeMs, () => undefined);
  if (mtimeMs === undefined) return undefined;
  const cached = cache.get(name);
  if (cached?.mtimeMs === mtimeMs) return cached.page;
  const html = shape(await readFile(file, 'utf8'));
  const page = { html, csp: docsCsp(inlineScriptHashes(html)) };
  cache.set(name, { mtimeMs, page });
  return page;
}

/**
 * A page's links to the files beside it, relative to its own folder (`./v2.html#/orders/getorder`
 * from the landing page, `../v2.html#/…` from a workflow's, for offline reading), made the
 * served pages' (`/docs/v2#/orders/getorder`).
 */
const servedLinks =
  (folder = '.') =>
  (html: string) =>
    html.replace(/href="(\.{1,2}\/[A-Za-z0-9/_-]*)\.html(#[^"]*)?"/g, (_, file: string, hash = '') => {
      const page = posix.join(folder, file);
      return `href="${page === 'index' ? '/docs' : `/docs/${page}`}${hash}"`;
    });

/** A page the contract names (getDocumentationPage's `page`): a surface's Redoc page or a guide, its links served. */
export const docsPage = (page: operations['getDocumentationPage']['parameters']['path']['page']) => readPage(page, servedLinks());

/** A workflow's page (scripts/docs-workflows.ts), its links served. */
export const docsWorkflow = (workflow: string) => readPage(`workflows/${workflow}`, servedLinks('workflows'));

/** The landing page, its links served. */
export const docsIndex = () => readPage('index', servedLinks());
