/**
 * openapi/README.md's provenance rule, enforced: every operation (redocly.yaml, and
 * test/docs/serveDocs.test.ts sees `npm run docs` report it) and every component schema
 * (.spectral.yaml `schema-provenance`) says where it comes from, and a field added to a seed
 * schema since the base carries `x-provenance: designed` (scripts/provenance.ts, run by
 * npm run check:breaking).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { undesignedNewProperties } from '../../scripts/provenance.ts';
import { loadBundle, root } from '../support/documents.ts';
import { testBudget } from '../support/wait.ts';

const schemas = (s: Record<string, unknown>) => ({ components: { schemas: s } });

describe('a field new in a seed schema (check:breaking)', () => {
  const base = schemas({
    Order: { 'x-provenance': 'seed', properties: { id: { type: 'string' } } },
    Quote: { 'x-provenance': 'designed', properties: { id: { type: 'string' } } },
  });

  it('must carry x-provenance: designed', () => {
    const current = schemas({
      Order: { 'x-provenance': 'seed', properties: { id: { type: 'string' }, note: { type: 'string' }, memo: { type: 'string', 'x-provenance': 'designed' } } },
      Quote: { 'x-provenance': 'designed', properties: { id: { type: 'string' }, fee: { type: 'string' } } },
    });
    expect(undesignedNewProperties(base, current)).toEqual(['Order.note']);
  });

  it('is found in an inline allOf part too, and not in a schema new since the base', () => {
    const current = schemas({
      Order: { 'x-provenance': 'seed', allOf: [{ $ref: '#/components/schemas/Quote' }, { properties: { id: { type: 'string' }, note: { type: 'string' } } }] },
      Country: { 'x-provenance': 'seed', properties: { code: { type: 'string' } } },
    });
    expect(undesignedNewProperties(base, current)).toEqual(['Order.note']);
  });

  it('finds none between the published contract and itself', () => {
    for (const surface of ['v1', 'v2', 'lookup', 'auth'] as const) expect(undesignedNewProperties(loadBundle(surface), loadBundle(surface))).toEqual([]);
  });
});

describe('a component schema without provenance (npm run lint, Spectral)', () => {
  const work = mkdtempSync(join(tmpdir(), 'ramp-provenance-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** The `schema-provenance` findings of Spectral with the repository's ruleset, one path each. */
  function findings(document: Record<string, any>): string[] {
    const file = join(work, 'lookup.yaml');
    writeFileSync(file, stringify(document));
    let output: string;
    try {
      output = execFileSync(join(root, 'node_modules', '.bin', 'spectral'), ['lint', file, '--ruleset', join(root, '.spectral.yaml'), '--format', 'json', '--quiet'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch (error) {
      output = (error as { stdout: string }).stdout;
    }
    return (JSON.parse(output) as { code: string; path: string[] }[]).filter((r) => r.code === 'schema-provenance').map((r) => r.path.join('.'));
  }

  it('is refused, as is an unknown provenance, and the published bundles pass', () => {
    const document = loadBundle('lookup');
    expect(findings(document)).toEqual([]);
    const [first, second] = Object.keys(document.components.schemas);
    delete document.components.schemas[first!]['x-provenance'];
    document.components.schemas[second!]['x-provenance'] = 'borrowed';
    expect(findings(document).sort()).toEqual([`components.schemas.${first}`, `components.schemas.${second}.x-provenance`].sort());
  }, testBudget);
});
