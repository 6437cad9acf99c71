/**
 * The repository's Markdown cannot go stale unnoticed: every relative link resolves
 * (remark-validate-links, offline), every file path a page names in code exists, and the
 * path tables of openapi/paths/<surface>/README.md list exactly the surface's paths and
 * operations.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBundle, operationsOf, root, surfaces } from '../support/documents.ts';

const markdownFiles = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((file) => file && existsSync(join(root, file)));

describe('the Markdown pages', () => {
  it('link only to files and headings that exist', () => {
    const run = spawnSync(join(root, 'node_modules', '.bin', 'remark'), ['--frail', '--quiet', '--no-color', '.'], { cwd: root, encoding: 'utf8' });
    expect(run.stderr + run.stdout).toBe('');
    expect(run.status).toBe(0);
  });

  it('name in code only file paths that exist', () => {
    // A path is named relative to the repository, to the page's folder or one above it, or
    // to a folder below the page's (server/README.md says `v1/common.ts` for
    // server/features/v1/common.ts); dist/ is what `npm start` builds, and patches/README.md
    // names the files of the library it patches.
    const below = (folder: string): string[] => [folder, ...readdirSync(folder, { withFileTypes: true }).filter((e) => e.isDirectory() && !['node_modules', '.git'].includes(e.name)).flatMap((e) => below(join(e.parentPath, e.name)))];
    const missing: string[] = [];
    for (const file of markdownFiles) {
      const text = readFileSync(join(root, file), 'utf8');
      const folder = dirname(join(root, file));
      for (const [, span] of text.matchAll(/`([^`\s]+)`/g)) {
        const path = span!.replace(/[:#].*$/, '');
        if (!path.includes('/') || !/\.(ts|tsx|mjs|cjs|js|yaml|yml|json|md|sh|toml|txt|html)$/.test(path)) continue;
        // URLs, placeholders, absolute paths and the shared folder beside the repository.
        if (/^[a-z]+:|[<>*…{]|^\/|^\.\.\/shared\//.test(path)) continue;
        const bases = [root, join(root, 'dist')];
        for (let up = folder; up.startsWith(root); up = dirname(up)) bases.push(up);
        if (file.startsWith('patches/')) bases.push(join(root, 'node_modules'), join(root, 'node_modules', 'express-openapi-validator', 'dist'));
        if (path.startsWith('dist/') || path.startsWith('lib/')) continue;
        if (bases.some((base) => existsSync(join(base, path)))) continue;
        if (below(folder).some((base) => existsSync(join(base, path)))) continue;
        missing.push(`${file}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it.each(surfaces)('openapi/paths/%s/README.md lists every path of the surface with its operations', (surface) => {
    const readme = readFileSync(join(root, 'openapi', 'paths', surface, 'README.md'), 'utf8');
    const listed = new Map<string, string[]>();
    for (const [, path, operations] of readme.matchAll(/^\| `(\/[^`]*)`[^|]*\| ([^|]*) \|/gm)) {
      listed.set(path!, [...operations!.matchAll(/`([A-Za-z0-9]+)`/g)].map((m) => m[1]!).sort());
    }
    const documented = new Map<string, string[]>();
    for (const { path, operation, webhook } of operationsOf(loadBundle(surface))) {
      if (!webhook) documented.set(path, [...(documented.get(path) ?? []), operation.operationId as string].sort());
    }
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(documented));
  });
});
