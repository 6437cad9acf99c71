/**
 * docs/partners-ci.md cannot rot: its shell example (the ```sh block after
 * `<!-- executed: test/docs/partnersCi.test.ts -->`) runs here with bash, as written, in a
 * partner's project whose `npm test` makes an isolated partner, runs every flow of the service
 * for it and deletes it (partnersCiProject.ts). The run must pass, print the readiness answer,
 * and leave no sandbox listening.
 *
 * One substitution: the example's `npx @ramp/sandbox` becomes this repository's server started
 * from its sources (server/main.ts, the code the package bundles). Installing the package means
 * packing it and compiling its database driver for the installing Node, minutes on two cores;
 * `npm run test:packages` does that and runs the package's own command.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../support/documents.ts';
import { waitBudget } from '../support/wait.ts';
import { freePort } from '../support/ports.ts';

const page = readFileSync(join(root, 'docs', 'partners-ci.md'), 'utf8');
const marker = '<!-- executed: test/docs/partnersCi.test.ts -->';
const startCommand = 'npx @ramp/sandbox';

/** The ```sh block right after the marker. */
function executedExample(): string {
  const at = page.indexOf(marker);
  if (at < 0) throw new Error(`docs/partners-ci.md has no ${marker}`);
  const match = /^\s*```sh\n([\s\S]*?)\n```/.exec(page.slice(at + marker.length));
  if (!match) throw new Error(`no \`\`\`sh block follows ${marker} in docs/partners-ci.md`);
  return `${match[1]}\n`;
}

/** Node with tsx's loader, so the sources run as they are. */
const tsNode = `"${process.execPath}" --import ${pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href}`;

const project = mkdtempSync(join(tmpdir(), 'ramp-partners-ci-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('docs/partners-ci.md', () => {
  it('its shell example starts the sandbox, waits for it, runs a partner project\'s tests against it, and stops it', async () => {
    const script = executedExample();
    expect(script.split(startCommand).length, `the example starts the sandbox with ${startCommand}, once`).toBe(2);
    writeFileSync(join(project, 'ci.sh'), script.replace(startCommand, `${tsNode} "${join(root, 'server', 'main.ts')}"`));
    writeFileSync(join(project, 'package.json'), JSON.stringify({
      name: 'partner', version: '1.0.0', private: true, scripts: { test: `${tsNode} "${join(root, 'test', 'docs', 'partnersCiProject.ts')}"` },
    }));
    const port = await freePort();
    // The partner's environment: none of this run's database or sandbox settings.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(RAMP_|DATABASE_URL$|LOG_LEVEL$|HOST$)/.test(name)));
    const child = spawn('bash', ['ci.sh'], { cwd: project, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => { output += chunk.toString('utf8'); });
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => { child.kill('SIGTERM'); reject(new Error(`the example ran past the wait budget:\n${output}`)); }, 2 * waitBudget);
      child.once('exit', (exitCode) => { clearTimeout(timer); resolve(exitCode); });
    });
    const log = () => `${output}\n--- sandbox.log ---\n${readFileSync(join(project, 'sandbox.log'), 'utf8')}`;
    expect(code, log()).toBe(0);
    expect(output).toContain('{"status":"ready"}');
    expect(output).toMatch(/every flow passed for partner [0-9a-f-]{36}: 11 flows/);
    expect(readFileSync(join(project, 'sandbox.log'), 'utf8')).toContain(`Sandbox API: http://localhost:${port}`);
    // The trap stopped the sandbox: nothing answers on its port.
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });
});
