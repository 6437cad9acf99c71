/**
 * npm run test:fuzz [-- options]: Schemathesis against a fresh sandbox, from the joined
 * contract (generated/openapi/ramp.yaml), with every check, positive and negative data,
 * and the stateful phase following the documents' links. Fails on any failure.
 *
 * The run happens in a network namespace of its own (`unshare -rn`, loopback only): fuzzed
 * webhook URLs and JWKS addresses name arbitrary hosts, and the sandbox must not reach any.
 *
 * It prints only lines of its own, each starting with `fuzz:` (see session.ts); Schemathesis's
 * console output is in test-results/fuzz/schemathesis.log.
 *
 * Options (all optional):
 *   --max-examples N   examples per operation and phase (default 100)
 *   --workers N        concurrent Schemathesis workers (default 1: Hypothesis on CPython 3.11
 *                      can fail with "AST constructor recursion depth mismatch" in threads)
 *   --max-time S       time budget of the whole Schemathesis run in seconds (default none)
 *   --seed N           Hypothesis seed (default: random, printed)
 *   --phases LIST      examples,coverage,fuzzing,stateful (default all)
 *   --operation ID     only this operationId (repeatable), for reproducing a failure
 *   --report DIR       where reports go (default test-results/fuzz)
 *   --database-url URL the sandbox on PostgreSQL: a fresh database on the server URL names,
 *                      reached through its Unix socket (the run has a loopback of its own):
 *                      `scripts/postgres.sh socket-url PORT` prints it (default: SQLite)
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const venv = join(root, '.venv-fuzz');
const requirements = join(import.meta.dirname, 'requirements.txt');
const pinned = /^schemathesis==(.+)$/m.exec(readFileSync(requirements, 'utf8'))?.[1];

function ensureSchemathesis(): string {
  const bin = join(venv, 'bin', 'schemathesis');
  const version = existsSync(bin) ? spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim() : '';
  if (version.endsWith(` ${pinned}`)) return bin;
  console.log(`fuzz: installing schemathesis ${pinned} into .venv-fuzz (pinned in scripts/fuzz/requirements.txt)`);
  const python = ['python3', 'python'].find((p) => spawnSync(p, ['--version']).status === 0);
  if (!python) throw new Error('test:fuzz needs Python 3 (python3) to install Schemathesis');
  for (const [command, args] of [
    [python, ['-m', 'venv', '--clear', venv]],
    [join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', '-r', requirements]],
  ] as const) {
    // Their output is shown only when they fail: the run prints nothing but its own lines.
    const result = spawnSync(command, args, { encoding: 'utf8' });
    if (result.status !== 0) {
      for (const line of `${result.stdout}${result.stderr}`.trimEnd().split('\n')) console.log(`fuzz| ${line}`);
      throw new Error(`${command} ${args.join(' ')} failed`);
    }
  }
  return bin;
}

let schemathesis: string;
try {
  schemathesis = ensureSchemathesis();
} catch (error) {
  console.log(`fuzz: cannot install Schemathesis: ${(error as Error).message}`);
  process.exit(1);
}
// Loopback only: bring `lo` up in the new namespace, then run the session in it.
const child = spawn(
  'unshare',
  ['--map-root-user', '--net', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, ...process.execArgv, join(import.meta.dirname, 'session.ts'), ...process.argv.slice(2)],
  { stdio: 'inherit', env: { ...process.env, RAMP_FUZZ_SCHEMATHESIS: schemathesis } },
);
child.on('error', (error) => {
  console.log(`fuzz: cannot isolate the run in a network namespace (unshare -rn): ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
