/**
 * @ramp/client as a partner gets it: `npm pack` with nothing built (its `prepack` builds),
 * installed from the tarball into an empty project with no server and no repository around
 * it, then used from plain Node (an ES module, and CommonJS through `require`) and
 * type-checked from TypeScript. On Node.js 22 and 24 too: test/packages/packages.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../support/documents.ts';
import { testBudget } from '../support/wait.ts';

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });

describe('the @ramp/client package', () => {
  const work = mkdtempSync(join(tmpdir(), 'ramp-client-package-'));
  const project = join(work, 'partner');
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('builds on pack, installs from the tarball and works from plain Node and TypeScript', { timeout: 2 * testBudget }, () => {
    // A pack before any build once made a tarball of package.json and README.md alone.
    rmSync(join(root, 'client', 'dist'), { recursive: true, force: true });
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work], join(root, 'client'))) as { filename: string; files: { path: string }[] }[];
    const files = packed[0]!.files.map((f) => f.path).sort();
    expect(files).toContain('dist/client/index.js');
    expect(files).toContain('dist/client/index.d.ts');
    expect(files).toContain('dist/generated/types/ramp.d.ts');
    expect(files).toContain('dist/generated/types/public-operations.js');
    // Only the built package: no sources, tests or repository files.
    expect(files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md'].includes(f))).toEqual([]);

    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'partner', version: '1.0.0', private: true, type: 'module' }));
    npm(['install', '--prefer-offline', '--no-package-lock', join(work, packed[0]!.filename)], project);

    writeFileSync(
      join(project, 'smoke.mjs'),
      `import { createHmac } from 'node:crypto';
import { createRampClient, RampError, RampProblem, verifyWebhook, isPublicOperation } from '@ramp/client';

const seen = [];
const ramp = createRampClient({
  baseUrl: 'https://api.sandbox.ramp.example',
  apiKey: 'api_sand:k1:8d0e7c2a-4b61-4f3e-9a57-1c2d3e4f5a6b',
  retry: { sleep: async () => {} },
  fetch: async (request) => {
    seen.push({ url: request.url, authorization: request.headers.get('authorization') });
    return new Response(JSON.stringify({ type: 'https://docs.ramp.example/errors/not-found', title: 'Not found', status: 404, detail: 'No such order.', instance: 'urn:uuid:1' }), { status: 404, headers: { 'content-type': 'application/problem+json' } });
  },
});
const { error, response } = await ramp.GET('/organization/{organizationId}/order/{id}', { params: { path: { organizationId: 'o', id: 'x' } } });
const problem = RampError.from(error, response);
const secret = Buffer.alloc(32, 7).toString('base64url') + '=';
const body = '{"b":1,"a":"x"}';
const signature = 'sha256=' + createHmac('sha256', Buffer.alloc(32, 7)).update('{"a":"x","b":1}').digest('hex');
const event = await verifyWebhook({ body, signature, secret });
console.log(JSON.stringify({ isProblem: problem instanceof RampProblem, slug: problem.slug, seen, event, lookupIsPublic: isPublicOperation('GET', '/lookup/tokens/cost') }));
`,
    );
    const result = JSON.parse(execFileSync(process.execPath, ['smoke.mjs'], { cwd: project, encoding: 'utf8' }));
    expect(result).toEqual({
      isProblem: true,
      slug: 'not-found',
      seen: [{ url: 'https://api.sandbox.ramp.example/organization/o/order/x', authorization: 'api_sand:k1:8d0e7c2a-4b61-4f3e-9a57-1c2d3e4f5a6b' }],
      event: { b: 1, a: 'x' },
      lookupIsPublic: true,
    });

    // CommonJS: require() of the package's ES module (Node.js 20.19 and later), one copy of its classes for both module systems.
    writeFileSync(join(project, 'smoke.cjs'), `const { createRampClient, RampError, isPublicOperation } = require('@ramp/client');
console.log(JSON.stringify({ client: typeof createRampClient, error: typeof RampError, lookupIsPublic: isPublicOperation('GET', '/lookup/tokens/cost') }));
`);
    const required = execFileSync(process.execPath, ['smoke.cjs'], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(JSON.parse(required)).toEqual({ client: 'function', error: 'function', lookupIsPublic: true });

    // A TypeScript partner gets the contract's types from the package alone.
    writeFileSync(
      join(project, 'typed.ts'),
      `import { createRampClient, unwrap, type Schema } from '@ramp/client';
const ramp = createRampClient({ baseUrl: 'https://api.sandbox.ramp.example', apiKey: 'api_sand:k:o' });
export async function status(organizationId: string, id: string): Promise<Schema<'OrderStatus'> | undefined> {
  const { data } = await ramp.GET('/organization/{organizationId}/order/{id}', { params: { path: { organizationId, id } } });
  return data?.status;
}
export async function created(organizationId: string, quoteId: string): Promise<string> {
  const order = await unwrap(ramp.POST('/organization/{organizationId}/order', { params: { path: { organizationId } }, body: { quoteId } }));
  return order.createdAt;
}
// @ts-expect-error: a path the contract does not have
ramp.GET('/orderz');
`,
    );
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2022', 'DOM'], strict: true, noEmit: true, types: [] }, files: ['typed.ts'] }));
    execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', project], { encoding: 'utf8' });
  });
});
