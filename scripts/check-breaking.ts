/**
 * npm run check:breaking [base]: compares each bundled surface with the same bundle at
 * `base` (default: the previous commit, HEAD~1) using oasdiff's breaking-change rules, and
 * fails on a breaking change (an ERR-level rule). A surface that did not exist at the base is
 * new, not broken. An intended break is made visible by bumping `info.version` to a new major.
 *
 * oasdiff is a Go program: it is built once into .tools/bin with `go install` at a pinned
 * version (a few seconds per surface against minutes with the npm alternatives we tried).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { surfaces } from './generate.ts';

// v1.34+ depend on a module the Go proxy no longer serves; v1.33.0 diffs OpenAPI 3.1 fully.
const OASDIFF = 'github.com/oasdiff/oasdiff@v1.33.0';
const root = resolve(import.meta.dirname, '..');
const base = process.argv[2] ?? 'HEAD~1';

function oasdiff(): string {
  const bin = join(root, '.tools', 'bin');
  const exe = join(bin, 'oasdiff');
  const version = OASDIFF.split('@')[1];
  const stamp = join(bin, `oasdiff-${version}`);
  if (existsSync(exe) && existsSync(stamp)) return exe;
  console.log(`building ${OASDIFF} into .tools/bin (needs Go)`);
  const built = spawnSync('go', ['install', OASDIFF], { stdio: 'inherit', env: { ...process.env, GOBIN: bin, CGO_ENABLED: '0' } });
  if (built.error || built.status !== 0) {
    console.error(`could not build oasdiff: ${built.error?.message ?? `go install exited ${built.status}`}`);
    process.exit(2);
  }
  writeFileSync(stamp, '');
  return exe;
}

function atBase(file: string): string | undefined {
  try {
    return execFileSync('git', ['show', `${base}:${file}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

const exe = oasdiff();
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
    const result = spawnSync(exe, ['breaking', previous, join(root, file), '--fail-on', 'ERR', '--format', 'text'], {
      cwd: root,
      encoding: 'utf8',
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
