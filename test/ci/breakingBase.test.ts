/**
 * scripts/breaking-base.ts: npm run check:breaking compares with the contract as last
 * published, not with HEAD~1, which missed a break two commits back on a branch.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseCommit } from '../../scripts/breaking-base.ts';

describe('the base check:breaking compares with', () => {
  const work = mkdtempSync(join(tmpdir(), 'ramp-breaking-base-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const git = (dir: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  const commit = (dir: string, text: string) => {
    writeFileSync(join(dir, 'contract.txt'), text);
    git(dir, 'add', 'contract.txt');
    git(dir, 'commit', '-q', '-m', text);
    return git(dir, 'rev-parse', 'HEAD');
  };
  const origin = join(work, 'origin');
  execFileSync('git', ['init', '-q', '-b', 'main', origin]);
  const published = [commit(origin, 'one'), commit(origin, 'two')][1];

  it('is where a branch left main, however many commits it has', () => {
    git(origin, 'checkout', '-q', '-b', 'feature');
    commit(origin, 'a break');
    commit(origin, 'another change');
    expect(baseCommit(undefined, origin)).toEqual({ base: published, why: 'where this branch left main' });
    git(origin, 'checkout', '-q', 'main');
  });

  it("on main, is the upstream before the commits not yet pushed, else the previous commit (a clean clone's)", () => {
    const clone = join(work, 'clone');
    execFileSync('git', ['clone', '-q', origin, clone]);
    expect(baseCommit(undefined, clone)).toEqual({ base: 'HEAD~1', why: 'the previous commit' });
    commit(clone, 'three');
    commit(clone, 'four');
    expect(baseCommit(undefined, clone)).toEqual({ base: published, why: 'the upstream, before the commits not yet pushed' });
  });

  it('is the one given', () => {
    expect(baseCommit('v1.0.0', origin)).toEqual({ base: 'v1.0.0', why: 'as given' });
  });
});
