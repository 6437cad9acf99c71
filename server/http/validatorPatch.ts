/**
 * The server runs express-openapi-validator 5.6.2 with patches/express-openapi-validator+5.6.2.patch
 * applied, which npm's postinstall applies to node_modules with patch-package (see
 * patches/README.md for what it changes and why). Without it every request would pay for the
 * validator compiling each route of the contract again, and every start for compiling schemas
 * it never uses; with another version of the package the patch is not there. Either way the
 * server would run, only slower: so it refuses to start instead, and says what to do.
 *
 * What is checked is the package's manifest, its one public file that names its version: the
 * patch adds `rampPatch` to it, naming the patch file.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ConfigError } from '../config.ts';

/** The version the patch was made for; test/server/validatorPatch.test.ts binds it to package.json and patches/. */
export const patchedVersion = '5.6.2';
export const patchFile = `express-openapi-validator+${patchedVersion}.patch`;

/** Why the installed validator is not the patched one, or undefined when it is. */
export function validatorPatchProblem(manifest: { version?: unknown; rampPatch?: unknown }): string | undefined {
  if (manifest.version !== patchedVersion) {
    return `express-openapi-validator ${String(manifest.version)} is installed, but patches/${patchFile} is for ${patchedVersion}: run npm ci, or remake the patch for the new version (patches/README.md)`;
  }
  if (manifest.rampPatch !== patchFile) {
    return `express-openapi-validator ${patchedVersion} is installed without patches/${patchFile}: run npm ci (its postinstall applies the patch), or npx patch-package`;
  }
  return undefined;
}

/**
 * The sandbox package (sandbox/) bundles the validator instead of installing it: its build
 * (scripts/build-sandbox.mjs) defines this as the manifest of the copy it bundled.
 */
declare const RAMP_BUNDLED_VALIDATOR_MANIFEST: { version?: unknown; rampPatch?: unknown } | undefined;

export function assertValidatorPatched(): void {
  // Otherwise read at run time from node_modules, never bundled: the check is about what is installed.
  const resolve = createRequire(import.meta.url).resolve;
  const manifest = typeof RAMP_BUNDLED_VALIDATOR_MANIFEST === 'object'
    ? RAMP_BUNDLED_VALIDATOR_MANIFEST
    : (JSON.parse(readFileSync(resolve('express-openapi-validator/package.json'), 'utf8')) as { version?: unknown; rampPatch?: unknown });
  const problem = validatorPatchProblem(manifest);
  if (problem) throw new ConfigError(problem);
}
