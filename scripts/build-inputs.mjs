/**
 * What build-server.mjs and build-console.mjs share: a build is current when its output is
 * newer than every file esbuild reported it was made from (kept in an inputs file beside it),
 * the build script itself and the package files. Plain JavaScript, like the scripts it serves.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** Whether `output` is newer than each input recorded in `inputsFile`, `script` and the package files (never with --force). */
export function upToDate(output, inputsFile, script) {
  if (process.argv.includes('--force') || !existsSync(output) || !existsSync(inputsFile)) return false;
  try {
    const built = statSync(output).mtimeMs;
    const inputs = [...JSON.parse(readFileSync(inputsFile, 'utf8')), relative(root, script), 'scripts/build-inputs.mjs', 'package.json', 'package-lock.json'];
    return inputs.every((file) => statSync(join(root, file)).mtimeMs < built);
  } catch {
    return false;
  }
}

/** Records the inputs of an esbuild result (its metafile), for the next `upToDate`. */
export function recordInputs(inputsFile, result) {
  writeFileSync(inputsFile, `${JSON.stringify(Object.keys(result.metafile.inputs))}\n`);
}
