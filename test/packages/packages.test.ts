/**
 * The two packages a partner installs, tried as a partner would on each Node.js they may have
 * (test/packages/partner.ts; the sandbox from 22, the floor of its better-sqlite3): `npm pack` in
 * sandbox/ and client/ (each `prepack` builds what ships), the tarballs installed into an empty
 * folder with production dependencies only (no patch-package, no esbuild, no TypeScript;
 * better-sqlite3's own Node-API build loading on that Node), then
 * `npx @ramp/sandbox`: its printed URL and key, `GET /health`, a customer and a quote with
 * plain fetch, @ramp/client loaded by `require` and by `import` against it, and SIGTERM to
 * npx stopping it; then the `ramp-sandbox` bin again on the same data, and SIGTERM ending it
 * with exit code 0: an abort (better-sqlite3 12 on Node.js 24) fails either test.
 *
 * Then the container recipe (sandbox/Dockerfile), built with podman on a stand-in for the Node.js
 * image it names (container.ts) and run as a CI's service container: published port, a volume,
 * its HEALTHCHECK, `docker stop`, and a second start on the same volume.
 *
 * Not part of `npm test`: it installs three Node.js versions and packs both packages.
 * `npm run test:packages` runs it; CI runs it as its own stage.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../support/documents.ts';
import { freePort } from '../support/ports.ts';
import { eventually, waitBudget } from '../support/wait.ts';
import { containerLog, nodeImage, podman, podmanEnvironment } from './container.ts';
import { nodeRuntime, nodeScript, nodeVersions, npm, sandboxNodeVersions, startCommand, type Command, type NodeRuntime } from './partner.ts';

const logs = join(root, 'test-results', 'packages');
const work = mkdtempSync(join(tmpdir(), 'ramp-packages-'));
const tarballs: Record<'sandbox' | 'client', string> = { sandbox: '', client: '' };
const installed = new Map<string, { node: NodeRuntime; project: string }>();

interface Packed { filename: string; files: { path: string }[] }

async function pack(folder: 'sandbox' | 'client'): Promise<Packed> {
  const [packed] = JSON.parse(await npm(undefined, ['pack', '--json', '--pack-destination', work], join(root, folder), join(logs, `pack-${folder}.log`))) as Packed[];
  tarballs[folder] = join(work, packed!.filename);
  return packed!;
}

/** A partner's empty project on `version` with both tarballs installed, or the client's alone where the sandbox does not run. */
async function install(version: string) {
  const node = await nodeRuntime(version);
  const project = join(work, `partner-node-${version}`);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'partner', version: '1.0.0', private: true }));
  const packages = (sandboxNodeVersions as readonly string[]).includes(version) ? [tarballs.sandbox, tarballs.client] : [tarballs.client];
  await npm(node, ['install', '--prefer-offline', '--omit=dev', ...packages], project, join(logs, `install-node-${version}.log`));
  installed.set(version, { node, project });
}

const packedFiles: Partial<Record<'sandbox' | 'client', string[]>> = {};

beforeAll(async () => {
  mkdirSync(logs, { recursive: true });
  // Packing the client first proves its prepack builds: nothing is built before it.
  rmSync(join(root, 'client', 'dist'), { recursive: true, force: true });
  for (const folder of ['client', 'sandbox'] as const) packedFiles[folder] = (await pack(folder)).files.map((f) => f.path).sort();
  // The installs compile at once: each is one compiler process, and there are two cores.
  await Promise.all(nodeVersions.map(install));
}, 6 * waitBudget);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed tarballs', () => {
  it('hold the built packages and nothing of the repository', () => {
    expect(packedFiles.client).toContain('dist/client/index.js');
    expect(packedFiles.client).toContain('dist/generated/types/ramp.d.ts');
    expect(packedFiles.sandbox).toEqual(expect.arrayContaining(['dist/server.js', 'dist/generated/openapi/ramp.json', 'dist/server/data/prices.json', 'dist/dist/console/manifest.json', 'dist/THIRD-PARTY-NOTICES.md']));
    for (const files of Object.values(packedFiles)) expect(files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md'].includes(f))).toEqual([]);
  });
});

describe.each(nodeVersions)('@ramp/client on Node.js %s', (version) => {
  it('loads by require and by import as one module', async () => {
    const { node, project } = installed.get(version)!;
    writeFileSync(join(project, 'both.cjs'), `const required = require('@ramp/client');
import('@ramp/client').then((imported) => console.log(JSON.stringify({ same: required.RampProblem === imported.RampProblem, client: typeof required.createRampClient })));
`);
    const { stdout, stderr } = await nodeScript(node, 'both.cjs', project, {});
    expect({ answer: JSON.parse(stdout), stderr }).toEqual({ answer: { same: true, client: 'function' }, stderr: '' });
  });
});

describe.each(sandboxNodeVersions)('@ramp/sandbox on Node.js %s', (version) => {
  it('installs with production dependencies only: no patch-package, no build tool, nothing compiled', async () => {
    const { node, project } = installed.get(version)!;
    const packages = readdirSync(join(project, 'node_modules'));
    for (const tool of ['patch-package', 'esbuild', 'typescript', 'tsx', 'preact', 'vitest']) expect(packages).not.toContain(tool);
    expect(readFileSync(join(logs, `install-node-${version}.log`), 'utf8')).not.toMatch(/patch-package/);
    // better-sqlite3 loads the Node-API build it ships for this platform: no compiler on a partner's machine.
    expect(existsSync(join(project, 'node_modules', 'better-sqlite3', 'build'))).toBe(false);
    writeFileSync(join(project, 'sqlite.cjs'), "console.log(new (require('better-sqlite3'))(':memory:').prepare('select 1 as one').get().one);\n");
    expect(await nodeScript(node, 'sqlite.cjs', project, {})).toEqual({ stdout: '1\n', stderr: '' });
  });

  it('npx @ramp/sandbox starts, answers a partner flow and both module systems, and stops on SIGTERM', async () => {
    const { node, project } = installed.get(version)!;
    const sandbox = startCommand(node, 'npx', ['@ramp/sandbox'], project, { PORT: '0' });
    try {
      const printed = await started(sandbox, 'Sandbox API key \\(shown once, keep it\\): (api_sand:\\S+)');
      await eventually(async () => (await fetch(`${printed.url}/health`).catch(() => undefined))?.status === 200, waitBudget, 'GET /health 200');

      const organizationId = await customerWithQuote(printed.url, printed.found, 'Package Customer');

      // @ramp/client from CommonJS (require of its ES module) and from an ES module, on this Node.
      const call = `const ramp = createRampClient({ baseUrl: process.env.RAMP_URL, apiKey: process.env.RAMP_KEY });
ramp.GET('/organization/{organizationId}', { params: { path: { organizationId: process.env.CUSTOMER } } }).then(({ data, response }) => console.log(JSON.stringify({ status: response.status, id: data && data.organizationId })));`;
      writeFileSync(join(project, 'client.cjs'), `const { createRampClient } = require('@ramp/client');\n${call}\n`);
      writeFileSync(join(project, 'client.mjs'), `import { createRampClient } from '@ramp/client';\n${call}\n`);
      for (const file of ['client.cjs', 'client.mjs']) {
        const { stdout, stderr } = await nodeScript(node, file, project, { RAMP_URL: printed.url, RAMP_KEY: printed.found, CUSTOMER: organizationId });
        expect({ file, answer: JSON.parse(stdout), stderr }).toEqual({ file, answer: { status: 200, id: organizationId }, stderr: '' });
      }

      // A CI's `kill $!`: npx runs the bin under `sh -c`, which the signal ends; the sandbox
      // follows it (npx itself reports the signal, as npm does for any command it ran).
      sandbox.child.kill('SIGTERM');
      await sandbox.exited;
      await eventually(() => sandbox.lines.some((line) => line.includes('"msg":"ramp stopped"')), waitBudget, 'the sandbox to stop');
      await expect(fetch(`${printed.url}/health`)).rejects.toThrow();
      // npx reports the exit of the bin it ran only as its own: an abort shows in the output.
      expect(sandbox.lines.filter((line) => /Assertion failed|Aborted|core dumped/.test(line))).toEqual([]);
      // The embedded database, in the folder it was started from.
      expect(existsSync(join(project, '.ramp-data'))).toBe(true);
    } finally {
      // After a failure: npx's end stops the sandbox too.
      if (sandbox.child.exitCode === null && sandbox.child.signalCode === null) sandbox.child.kill('SIGTERM');
      writeFileSync(join(logs, `sandbox-node-${version}.log`), sandbox.lines.join('\n'));
    }
  });

  it('the ramp-sandbox bin starts again on the same data and exits 0 on SIGTERM', async () => {
    const { node, project } = installed.get(version)!;
    const sandbox = startCommand(node, join(project, 'node_modules', '.bin', 'ramp-sandbox'), [], project, { PORT: '0' });
    try {
      // The key was printed by the first start: this one says how to have one again.
      const printed = await started(sandbox, '(For a known key, set RAMP_SEED_API_KEY)');
      await eventually(async () => (await fetch(`${printed.url}/health`).catch(() => undefined))?.status === 200, waitBudget, 'GET /health 200');
      sandbox.child.kill('SIGTERM');
      expect(await sandbox.exited).toEqual({ code: 0, signal: null });
      expect(sandbox.lines.some((line) => line.includes('"msg":"ramp stopped"'))).toBe(true);
    } finally {
      if (sandbox.child.exitCode === null && sandbox.child.signalCode === null) sandbox.child.kill('SIGKILL');
      writeFileSync(join(logs, `bin-node-${version}.log`), sandbox.lines.join('\n'));
    }
  });
});

describe('the container recipe (sandbox/Dockerfile), built and run with podman', () => {
  let env: Record<string, string>;
  // Names of this run's own: another run on the machine may be building and starting its own.
  const image = `localhost/ramp-sandbox:packages-test-${process.pid}`;
  const volume = `ramp-sandbox-packages-test-${process.pid}`;
  const containers: string[] = [];

  beforeAll(async () => {
    env = podmanEnvironment(work);
    const base = await nodeImage(env, installed.get(sandboxNodeVersions[0])!.node, work);
    // The build context a partner has after `npm pack` in sandbox/: the recipe, its ignore file, the tarball.
    const context = join(work, 'container');
    mkdirSync(context);
    for (const file of ['Dockerfile', '.dockerignore']) copyFileSync(join(root, 'sandbox', file), join(context, file));
    copyFileSync(tarballs.sandbox, join(context, basename(tarballs.sandbox)));
    // The docker format keeps HEALTHCHECK (OCI images have no such field); the build's npm reaches the registry through the host's network.
    const built = await podman(env, ['build', '--format', 'docker', '--network', 'host', '--build-arg', `NODE_IMAGE=${base}`, '-t', image, '.'], context);
    writeFileSync(join(logs, 'container-build.log'), built);
  }, 4 * waitBudget);

  afterAll(async () => {
    for (const name of containers) writeFileSync(join(logs, `${name}.log`), await containerLog(env, name).catch((error: Error) => error.message));
    await podman(env, ['rm', '--force', '--ignore', ...containers]).catch(() => undefined);
    await podman(env, ['volume', 'rm', '--force', volume]).catch(() => undefined);
    await podman(env, ['rmi', '--force', image]).catch(() => undefined);
  });

  /** `docker run -d -p …:3000 -v <volume>:/var/lib/ramp-sandbox <image>`, as a partner's CI starts it; its address and its log. */
  async function start() {
    const port = await freePort();
    const name = `${volume}-${containers.length + 1}`;
    containers.push(name);
    // No health timer (podman would need systemd for it); the test runs the check itself.
    await podman(env, ['run', '-d', '--name', name, '--health-interval', 'disable', '-p', `127.0.0.1:${port}:3000`, '-v', `${volume}:/var/lib/ramp-sandbox`, image]);
    const url = `http://127.0.0.1:${port}`;
    await eventually(async () => {
      if ((await podman(env, ['inspect', '--format', '{{.State.Running}}', name])).trim() !== 'true') throw new Error(`the container stopped:\n${await containerLog(env, name)}`);
      return (await fetch(`${url}/health`).catch(() => undefined))?.status === 200;
    }, waitBudget, 'GET /health 200 through the published port');
    const log = () => containerLog(env, name);
    return { name, url, log };
  }

  async function stop(name: string) {
    await podman(env, ['stop', '--time', String(Math.round(waitBudget / 1000)), name]);
    return { exitCode: (await podman(env, ['inspect', '--format', '{{.State.ExitCode}}', name])).trim(), log: await containerLog(env, name) };
  }

  it('runs the sandbox as the node user, answers a partner\'s flow, reports healthy, and stops with 0 on `docker stop`', async () => {
    expect((await podman(env, ['image', 'inspect', '--format', '{{.Config.User}} {{json .Config.ExposedPorts}}', image])).trim()).toBe('node {"3000/tcp":{}}');
    const first = await start();
    const key = /^Sandbox API key \(shown once, keep it\): (api_sand:\S+)$/m.exec(await first.log())?.[1];
    expect(key).toBeDefined();
    // The image's HEALTHCHECK, run as Docker's timer would.
    await podman(env, ['healthcheck', 'run', first.name]);
    const organizationId = await customerWithQuote(first.url, key!, 'Container Customer');
    const stopped = await stop(first.name);
    expect(stopped.exitCode).toBe('0');
    expect(stopped.log).toContain('"msg":"ramp stopped"');

    // The same volume: the partner, its key and its data are still there, and the key is not printed again.
    const second = await start();
    expect(await second.log()).toContain('For a known key, set RAMP_SEED_API_KEY');
    const read = await fetch(`${second.url}/organization/${organizationId}`, { headers: { Authorization: key! } });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ organizationId, displayName: 'Container Customer' });
    expect((await stop(second.name)).exitCode).toBe('0');
  });
});

/** A partner's first flow with plain fetch: a customer, its KYC approved, an onramp quote for it. Answers the customer's id. */
async function customerWithQuote(url: string, key: string, displayName: string): Promise<string> {
  const headers = { Authorization: key, 'Content-Type': 'application/json' };
  const created = await fetch(`${url}/ramp/organization`, { method: 'POST', headers, body: JSON.stringify({ displayName, type: 'personal' }) });
  expect(created.status).toBe(201);
  const { organizationId } = (await created.json()) as { organizationId: string };
  const kyc = await fetch(`${url}/sandbox/organization/${organizationId}/kyc`, { method: 'POST', headers, body: JSON.stringify({ status: 'approved' }) });
  expect(kyc.status).toBe(200);
  const quoteBody = { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '500.00', rail: 'spei', walletAddress: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' };
  const quote = await fetch(`${url}/organization/${organizationId}/quote`, { method: 'POST', headers, body: JSON.stringify(quoteBody) });
  expect(quote.status).toBe(201);
  expect(await quote.json()).toMatchObject({ organizationId, type: 'onramp', sourceAmount: '500.00' });
  return organizationId;
}

/** The base URL the sandbox printed, and the first group of `pattern` in its output. */
function started(sandbox: Command, pattern: string) {
  return eventually(() => {
    if (sandbox.child.exitCode !== null || sandbox.child.signalCode !== null) throw new Error(`the sandbox exited (${sandbox.child.exitCode ?? sandbox.child.signalCode}):\n${sandbox.lines.join('\n')}`);
    const text = sandbox.lines.join('\n');
    const url = /^Sandbox API: (http:\/\/\S+)$/m.exec(text)?.[1];
    const found = new RegExp(pattern, 'm').exec(text)?.[1];
    return url && found ? { url, found } : undefined;
  }, waitBudget, `the base URL and ${pattern}`);
}
