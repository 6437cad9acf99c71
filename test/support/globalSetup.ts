/**
 * Run once before any test file: the sandbox serves its console (getSandboxConsole,
 * getSandboxConsoleAsset) from dist/console/, which `npm start` builds but a clean clone has
 * not. Every test that starts a sandbox — the console's own, and the property tests that send
 * each operation of the contract — gets the files a running sandbox would have.
 */
import { buildConsole } from '../../scripts/build-console.mjs';

export default async function setup(): Promise<void> {
  await buildConsole();
}
