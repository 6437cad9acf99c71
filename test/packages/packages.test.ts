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
 * Not part of `npm test`: it installs three Node.js versions and packs both packages.
 * `npm run test:packages` runs it; CI runs it as its own stage.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../support/documents.ts';
import { eventually, waitBudget } from '../support/wait.ts';
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

      const headers = { Authorization: printed.found, 'Content-Type': 'application/json' };
      const created = await fetch(`${printed.url}/ramp/organization`, { method: 'POST', headers, body: JSON.stringify({ displayName: 'Package Customer', type: 'personal' }) });
      expect(created.status).toBe(201);
      const { organizationId } = (await created.json()) as { organizationId: string };
      const kyc = await fetch(`${printed.url}/sandbox/organization/${organizationId}/kyc`, { method: 'POST', headers, body: JSON.stringify({ status: 'approved' }) });
      expect(kyc.status).toBe(200);
      const quoteBody = { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '500.00', rail: 'spei', walletAddress: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' };
      const quote = await fetch(`${printed.url}/organization/${organizationId}/quote`, { method: 'POST', headers, body: JSON.stringify(quoteBody) });
      expect(quote.status).toBe(201);
      expect(await quote.json()).toMatchObject({ organizationId, type: 'onramp', sourceAmount: '500.00' });

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
