/**
 * npm run check:breaking [base]: compares each surface as openapi/ makes it now (bundled in
 * memory, so a break not yet regenerated into generated/ is seen too) with its published
 * bundle, generated/openapi/<surface>.yaml at `base`, using oasdiff's breaking-change rules,
 * and fails on a breaking change (an ERR-level rule). A surface that did not exist at the base
 * is new, not broken. A finding reviewed and accepted is listed in scripts/breaking-accepted/<surface>.txt.
 * It fails too on a field added since the base to a seed schema without `x-provenance:
 * designed` (scripts/provenance.ts).
 *
 * The base, when not given, is the contract as last published (scripts/breaking-base.ts).
 *
 * oasdiff is a Go program: it is built once into .tools/bin with `go install` at a pinned
 * version (a few seconds per surface against minutes with the npm alternatives we tried).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import { baseCommit } from './breaking-base.ts';
import { createPreview } from './docs-preview.ts';
import { surfaces } from './generate.ts';
import { undesignedNewProperties } from './provenance.ts';

// The current release; it builds from the Go module proxy (v1.34 to v1.36 once did not).
const OASDIFF = 'github.com/oasdiff/oasdiff@v1.37.0';
const root = resolve(import.meta.dirname, '..');

const { base, why } = baseCommit(process.argv[2], root);

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

interface Finding {
  id: string;
  text: string;
  /** 3 is ERR, 2 WARN, 1 INFO. */
  level: number;
  operation: string;
  path: string;
}

/** One line per finding, as scripts/breaking-accepted/<surface>.txt lists the accepted ones. */
const describe = (f: Finding) => `${f.operation} ${f.path} ${f.text}`;

/**
 * The ERR findings reviewed and accepted, one per line (`#` starts a comment): a change a
 * rule flags that breaks no client, or an intended break, each file saying why. Filtered here
 * rather than with oasdiff's --err-ignore, which does not match webhook findings.
 */
function acceptedFindings(surface: string): Set<string> {
  const file = join(root, 'scripts', 'breaking-accepted', `${surface}.txt`);
  if (!existsSync(file)) return new Set();
  return new Set(readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')));
}

const exe = oasdiff();
console.log(`comparing openapi/ with the published bundles at ${base === 'HEAD~1' ? base : base.slice(0, 12)} (${why})`);
const contract = await createPreview(root);
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
    const now = join(work, `${surface}-now.json`);
    const document = contract.document(surface)!;
    writeFileSync(now, JSON.stringify(document));
    if (existsSync(join(root, file)) && !isDeepStrictEqual(parse(readFileSync(join(root, file), 'utf8')), document)) {
      console.log(`${surface}: ${file} is stale (npm run generate); openapi/ as it is now is compared`);
    }
    for (const field of undesignedNewProperties(parse(before), document)) {
      console.error(`${surface}: ${field} is new in a seed schema: it needs \`x-provenance: designed\` (openapi/README.md, Provenance)`);
      broken++;
    }
    const result = spawnSync(exe, ['breaking', previous, now, '--format', 'json'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    if (result.status !== 0 || result.error) {
      process.stderr.write(result.stderr ?? '');
      console.error(`${surface}: oasdiff failed (${result.error?.message ?? `exit ${result.status}`})`);
      broken++;
      continue;
    }
    const findings = JSON.parse(result.stdout || '[]') as Finding[];
    const accepted = acceptedFindings(surface);
    const errors = findings.filter((f) => f.level >= 3 && !accepted.has(describe(f)));
    const skipped = findings.filter((f) => f.level >= 3).length - errors.length;
    for (const f of errors) console.log(`${surface}: ${describe(f)} [${f.id}]`);
    if (errors.length > 0) {
      broken++;
      console.error(`${surface}: ${errors.length} breaking change(s) against ${base}`);
    } else {
      console.log(`${surface}: no breaking change against ${base}${skipped ? ` (${skipped} accepted in scripts/breaking-accepted/${surface}.txt)` : ''}`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(broken > 0 ? 1 : 0);
