/**
 * Which commit npm run check:breaking compares with (scripts/check-breaking.ts): the contract
 * as last published. On a branch, where it left main (`git merge-base HEAD main`, or
 * origin/main in a clone without a local main), so every commit of the branch counts, not
 * only the last (HEAD~1 missed a break two commits back). On main with commits not yet
 * pushed, where it left its upstream. On main as pushed (CI's clean clone), history alone
 * does not say which commits landed together, so the base is the previous commit: a landing
 * of several commits passes the commit before them as the base.
 */
import { execFileSync } from 'node:child_process';

export function baseCommit(given: string | undefined, cwd: string): { base: string; why: string } {
  if (given) return { base: given, why: 'as given' };
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
    } catch {
      return undefined;
    }
  };
  const head = git('rev-parse', 'HEAD');
  const branch = git('symbolic-ref', '--short', '-q', 'HEAD');
  const main = ['main', 'origin/main'].find((ref) => git('rev-parse', '-q', '--verify', `${ref}^{commit}`));
  const forkFrom = (ref: string) => {
    const fork = git('merge-base', 'HEAD', ref);
    return fork && fork !== head ? fork : undefined;
  };
  const fromMain = main && branch !== 'main' ? forkFrom(main) : undefined;
  if (fromMain) return { base: fromMain, why: `where this branch left ${main}` };
  const upstream = git('rev-parse', '-q', '--verify', '@{upstream}') ? forkFrom('@{upstream}') : undefined;
  if (upstream) return { base: upstream, why: 'the upstream, before the commits not yet pushed' };
  return { base: 'HEAD~1', why: 'the previous commit' };
}
