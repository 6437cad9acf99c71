/**
 * The sandbox package's build (sandbox/, `@ramp/sandbox`), run by its `prepack`: everything a
 * partner's `npm install` needs ready-made, so it installs with production dependencies only
 * and runs no patch-package, esbuild or TypeScript.
 *
 * - sandbox/dist/server.js: server/main.ts and every package it uses in one ES module, with a
 *   `#!/usr/bin/env node` line (it is the package's `ramp-sandbox` bin). The validator is
 *   bundled from the root's node_modules, where `npm ci` patched it (patches/README.md): the
 *   build refuses an unpatched one, and passes the manifest of the copy it bundled to the
 *   server's start-up check (server/http/validatorPatch.ts). Only what cannot be bundled stays
 *   a dependency of the package: better-sqlite3 (native code, built by the partner's install
 *   for their Node), and pg-native, which pg loads only when asked to and nobody asks.
 * - beside it, the files the server reads at run time, at the places its modules look for
 *   them (`ownDirname` with the repository's root as the bundle's folder): the joined contract
 *   (dist/generated/openapi/ramp.json), the price feed and country lists (dist/server/data/),
 *   and the console's files (dist/dist/console/, built by build-console.mjs).
 *
 *   node scripts/build-sandbox.mjs
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { buildConsole } from './build-console.mjs';
import { ownDirname, packageJson } from './build-server.mjs';

const root = resolve(import.meta.dirname, '..');
const packageDir = join(root, 'sandbox');
const dist = join(packageDir, 'dist');
const sandboxPackage = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
// What the package installs (its dependencies) stays outside the bundle; so does pg's optional native binding.
const external = [...Object.keys(sandboxPackage.dependencies ?? {}), 'pg-native'];

/**
 * Where the package may depend on another version than the root, and the version it must be.
 * better-sqlite3: 12 (the root's, which still runs on Node.js 20) aborts on Node.js 24.19 and
 * later, where every node::ObjectWrap registers a cleanup hook its destructor cannot remove
 * from a garbage collection (nodejs/node#65446); 13 wraps its objects with Node-API instead and
 * needs Node.js 22, the package's floor. test/packages proves the package on 13.
 */
const packageOwnVersions = { 'better-sqlite3': '13.2.0' };

/** The package's dependencies are the versions the bundle was tested with: the root's, or the one named above. */
function assertSameVersions() {
  const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  for (const [name, version] of Object.entries(sandboxPackage.dependencies ?? {})) {
    const expected = packageOwnVersions[name] ?? rootPackage.dependencies?.[name];
    if (expected !== version) throw new Error(`sandbox/package.json depends on ${name} ${version}, where the build expects ${expected}: make them the same`);
  }
}

/** The validator's manifest in the root's node_modules, which must carry the patch's marker (patches/README.md). */
function patchedValidatorManifest() {
  const file = createRequire(join(root, 'package.json')).resolve('express-openapi-validator/package.json');
  const { version, rampPatch } = JSON.parse(readFileSync(file, 'utf8'));
  if (!rampPatch) throw new Error(`express-openapi-validator ${version} in node_modules is not patched: run npm ci at the repository's root first`);
  return { version, rampPatch };
}

/** A package bundled into one ES module still calls `require` for Node's own modules: it gets the real one. */
const banner = [
  '#!/usr/bin/env node',
  "import { createRequire as __rampCreateRequire } from 'node:module';",
  'const require = __rampCreateRequire(import.meta.url);',
].join('\n');

async function bundleServer() {
  const result = await build({
    entryPoints: [join(root, 'server', 'main.ts')],
    outfile: join(dist, 'server.js'),
    // The metafile's inputs relative to the root, wherever npm runs prepack from.
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    banner: { js: banner },
    define: { RAMP_BUNDLED_VALIDATOR_MANIFEST: JSON.stringify(patchedValidatorManifest()) },
    legalComments: 'none',
    metafile: true,
    logLevel: 'error',
    plugins: [ownDirname(root), packageJson],
  });
  writeNotices(Object.keys(result.metafile.inputs));
}

/**
 * The licenses of the packages bundled into server.js, each with its own license text, as
 * their licenses (MIT, ISC, BSD, Apache-2.0) ask of a copy: dist/THIRD-PARTY-NOTICES.md.
 */
function writeNotices(inputs) {
  const folders = new Set(inputs.map((file) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1]).filter(Boolean));
  const notices = [...folders].sort().map((folder) => {
    const { name, version, license: named, licenses } = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));
    const license = named ?? licenses?.map((l) => l.type).join(' OR ');
    const licenseFile = readdirSync(join(root, folder)).find((file) => /^(licen[cs]e|copying)/i.test(file));
    const text = licenseFile ? readFileSync(join(root, folder, licenseFile), 'utf8').trim() : `${license} (the package ships no license file)`;
    return `## ${name}@${version} (${typeof license === 'string' ? license : JSON.stringify(license)})\n\n\`\`\`\n${text}\n\`\`\`\n`;
  });
  writeFileSync(join(dist, 'THIRD-PARTY-NOTICES.md'), `# Packages bundled into server.js\n\n${notices.join('\n')}`);
}

/** The files the server reads beside its modules, where the bundle's modules look for them. */
async function copyRuntimeFiles() {
  mkdirSync(join(dist, 'generated', 'openapi'), { recursive: true });
  cpSync(join(root, 'generated', 'openapi', 'ramp.json'), join(dist, 'generated', 'openapi', 'ramp.json'));
  cpSync(join(root, 'server', 'data'), join(dist, 'server', 'data'), { recursive: true });
  const manifest = await buildConsole();
  const consoleDir = join(dist, 'dist', 'console');
  mkdirSync(consoleDir, { recursive: true });
  for (const file of [manifest.script, manifest.style]) cpSync(join(root, 'dist', 'console', file), join(consoleDir, file));
  writeFileSync(join(consoleDir, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
}

assertSameVersions();
rmSync(dist, { recursive: true, force: true });
await bundleServer();
await copyRuntimeFiles();
process.stderr.write(`sandbox/dist built for ${sandboxPackage.name}@${sandboxPackage.version}\n`);
