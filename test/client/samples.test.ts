/**
 * The TypeScript samples the docs show (x-codeSamples, scripts/code-samples.ts) compile
 * against the client: every path, parameter and body they use is one the contract types
 * accept, so a sample a partner copies works.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBundle, operationsOf, root, surfaces } from '../support/documents.ts';
import { testBudget } from '../support/wait.ts';

describe('the code samples of the docs', () => {
  it('are on every operation of every bundle and type-check against @ramp/client', { timeout: testBudget }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'ramp-samples-'));
    try {
      const files: string[] = [];
      for (const surface of surfaces) {
        for (const { operation, webhook } of operationsOf(loadBundle(surface))) {
          if (webhook) continue;
          const samples = operation['x-codeSamples'] as { lang: string; label: string; source: string }[] | undefined;
          // The other languages' samples run in test/samples/codeSamples.test.ts.
          const typescript = samples?.find((sample) => sample.lang === 'TypeScript');
          expect(typescript, operation.operationId).toEqual(expect.objectContaining({ source: expect.stringContaining('createRampClient') }));
          const file = `${surface}-${operation.operationId}.mts`;
          writeFileSync(join(dir, file), typescript!.source);
          files.push(file);
        }
      }
      expect(files.length).toBeGreaterThan(80);
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2023',
            lib: ['ES2023', 'DOM'],
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            allowImportingTsExtensions: true,
            typeRoots: [join(root, 'node_modules', '@types')],
            types: ['node'],
            paths: { '@ramp/client': [join(root, 'client', 'index.ts')] },
          },
          files,
        }),
      );
      let output = '';
      try {
        execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', dir], { encoding: 'utf8' });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout ?? error);
      }
      expect(output).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
