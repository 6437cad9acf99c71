/**
 * Builds the sandbox console (console/) into dist/console/ with esbuild: one ES module that
 * bundles Preact, @ramp/client (client/) and the contract's types, and one style sheet, each
 * named after its content, plus manifest.json naming them for the server
 * (server/features/console/assets.ts). Nothing is fetched at run time: the page loads these
 * two files from the sandbox itself. Run by `npm start` (prestart), by the tests that need
 * the console, and by `npm run build:console`. Plain JavaScript, like build-server.mjs.
 *
 *   node scripts/build-console.mjs [--force] [--verbose]
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { recordInputs, upToDate } from './build-inputs.mjs';

const root = resolve(import.meta.dirname, '..');
const outdir = join(root, 'dist', 'console');
const manifestFile = join(outdir, 'manifest.json');
const inputsFile = join(outdir, 'inputs.json');
const verbose = process.argv.includes('--verbose');

const isUpToDate = () => upToDate(manifestFile, inputsFile, import.meta.filename);

/** Builds unless up to date; answers the manifest. */
export async function buildConsole() {
  if (isUpToDate()) {
    if (verbose) process.stderr.write('dist/console is up to date\n');
    return JSON.parse(readFileSync(manifestFile, 'utf8'));
  }
  const started = performance.now();
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: [join(root, 'console', 'console.tsx'), join(root, 'console', 'console.css')],
    outdir,
    entryNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome111', 'firefox111', 'safari16.4'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => basename(file));
  const manifest = { script: outputs.find((f) => f.endsWith('.js')), style: outputs.find((f) => f.endsWith('.css')) };
  // Older builds' files go: the manifest names the only ones served.
  for (const file of readdirSync(outdir)) if (file !== manifest.script && file !== manifest.style && file !== 'manifest.json' && file !== 'inputs.json') rmSync(join(outdir, file));
  recordInputs(inputsFile, result);
  writeFileSync(manifestFile, `${JSON.stringify(manifest)}\n`);
  if (verbose) process.stderr.write(`dist/console built in ${Math.round(performance.now() - started)} ms (${manifest.script}, ${manifest.style})\n`);
  return manifest;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await buildConsole();
