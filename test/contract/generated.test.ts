import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate, staleFiles } from '../../scripts/generate.ts';
import { root } from '../support/documents.ts';
import { testBudget } from '../support/wait.ts';

describe('generated/', () => {
  const fresh = mkdtempSync(join(tmpdir(), 'ramp-fresh-'));
  afterAll(() => rmSync(fresh, { recursive: true, force: true }));

  it('is exactly what openapi/ makes now (bundles, joined document, types, docs)', { timeout: testBudget }, () => {
    generate(fresh);
    expect(staleFiles(fresh, join(root, 'generated'))).toEqual([]);
  });
});
