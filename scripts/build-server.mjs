/**
 * npm start's first step (prestart): bundles server/main.ts and everything it imports from
 * server/ into dist/server.js (git-ignored) with esbuild, so the server starts on plain
 * node instead of compiling each TypeScript file at every start (tsx). Plain JavaScript on
 * purpose: it runs before anything could compile TypeScript.
 *
 * Packages stay in node_modules and load as they always do (native ones, and the validator,
 * as patched there by npm's postinstall: patches/README.md), except
 * `bundled`: pure ESM packages of hundreds of small files, each of which Node would
 * otherwise resolve and compile on its own (a third of the start's module loading).
 *
 * A build is skipped when dist/server.js is newer than every file it was made from (the
 * list esbuild reported last time, in dist/server.inputs.json), so only the first start
 * after a change pays for it.
 *
 *   node scripts/build-server.mjs [--force] [--verbose]
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { recordInputs, upToDate } from './build-inputs.mjs';

const root = resolve(import.meta.dirname, '..');
const outfile = join(root, 'dist', 'server.js');
const inputsFile = join(root, 'dist', 'server.inputs.json');
const bundled = ['kysely', 'jose'];
const verbose = process.argv.includes('--verbose');

const isUpToDate = () => upToDate(outfile, inputsFile, import.meta.filename);

/**
 * A module finds its files next to itself (`join(import.meta.dirname, '..', 'data', …)`);
 * in the bundle every module lives in one file, so each keeps its own folder, written relative
 * to `bundleDir`, the folder the bundle stands for in the repository's layout (dist/ here; the
 * sandbox package's bundle, build-sandbox.mjs, stands for the root and ships the files below it).
 */
export function ownDirname(bundleDir) {
  return {
    name: 'own-dirname',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.dirname')) return undefined;
        const folder = relative(bundleDir, dirname(args.path)).split('\\').join('/');
        return { contents: source.replaceAll('import.meta.dirname', `(import.meta.dirname + ${JSON.stringify(`/${folder}`)})`), loader: 'ts' };
      });
    },
  };
}

/** JSON a package ships (`i18n-iso-countries/langs/en.json`) is bundled: esbuild would drop its `with { type: 'json' }`. */
export const packageJson = {
  name: 'package-json',
  setup(b) {
    const require = createRequire(join(root, 'package.json'));
    b.onResolve({ filter: /^[^./].*\.json$/ }, (args) => ({ path: require.resolve(args.path) }));
  },
};

async function buildServer() {
  if (isUpToDate()) {
    if (verbose) process.stderr.write('dist/server.js is up to date\n');
    return;
  }
  const started = performance.now();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })
    .filter((name) => !bundled.includes(name))
    .flatMap((name) => [name, `${name}/*`]);
  const result = await build({
    entryPoints: [join(root, 'server', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [ownDirname(dirname(outfile)), packageJson],
  });
  recordInputs(inputsFile, result);
  if (verbose) process.stderr.write(`dist/server.js built in ${Math.round(performance.now() - started)} ms\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await buildServer();
