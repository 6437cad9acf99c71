/**
 * npm run check:breaking [base]: compares each bundled surface with the same bundle at
 * `base` (default: the previous commit, HEAD~1) using Optic's breaking-change rules, and
 * fails on a breaking change. A surface that did not exist at the base is new, not broken.
 * An intended break is made visible by bumping `info.version` to a new major version.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { surfaces } from './generate.ts';

const root = resolve(import.meta.dirname, '..');
const base = process.argv[2] ?? 'HEAD~1';

function atBase(file: string): string | undefined {
  try {
    return execFileSync('git', ['show', `${base}:${file}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

const work = mkdtempSync(join(tmpdir(), 'ramp-breaking-'));
let broken = 0;
try {
  for (const surface of surfaces) {
    const file = `generated/openapi/${surface}.yaml`;
    const before = atBase(file);
    if (before === undefined) {
      console.log(`${surface}: new at ${base}, nothing to break`);
      continue;
    }
    const previous = join(work, `${surface}.yaml`);
    writeFileSync(previous, before);
    const result = spawnSync(join(root, 'node_modules', '.bin', 'optic'), ['diff', previous, join(root, file), '--check', '--severity', 'error'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, OPTIC_TELEMETRY: 'false', CI: 'true' },
      timeout: 120_000,
    });
    process.stdout.write(result.stdout ?? '');
    process.stderr.write(result.stderr ?? '');
    if (result.status !== 0) {
      broken++;
      console.error(`${surface}: breaking changes against ${base} (exit ${result.status ?? result.signal})`);
    } else {
      console.log(`${surface}: no breaking change against ${base}`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(broken > 0 ? 1 : 0);
