/**
 * The console's files as the build made them (scripts/build-console.mjs → dist/console/):
 * `manifest.json` names the script and style sheet of the current build, each named after
 * its content, so the page can be `no-store` and the files cached for a year. Read at each
 * request from disk: a rebuild while the server runs is served at once, and a server started
 * without a build answers 503 instead of failing to start (the API works without a console).
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { contractPath } from '../../shared/contract.ts';

/** dist/console at the repository's root; found from the contract's path, which the bundled server resolves too. */
export const consoleDir = join(dirname(contractPath), '..', '..', 'dist', 'console');

export interface ConsoleManifest {
  script: string;
  style: string;
}

export async function consoleManifest(dir = consoleDir): Promise<ConsoleManifest | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as ConsoleManifest;
  } catch {
    return undefined;
  }
}

/** A file of the current build, or undefined: only the files the manifest names are served. */
export async function consoleAsset(name: string, dir = consoleDir): Promise<{ type: string; text: string } | undefined> {
  const manifest = await consoleManifest(dir);
  if (!manifest || (name !== manifest.script && name !== manifest.style)) return undefined;
  const text = await readFile(join(dir, name), 'utf8');
  return { type: name.endsWith('.css') ? 'text/css' : 'text/javascript', text };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page: the two files and an element to render into; no inline script or style. */
export function consolePage(manifest: ConsoleManifest): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox console · Ramp</title>
<link rel="stylesheet" href="/sandbox/console/${escapeHtml(manifest.style)}">
<script type="module" src="/sandbox/console/${escapeHtml(manifest.script)}"></script>
</head>
<body>
<div id="app"><noscript>The sandbox console needs JavaScript.</noscript></div>
</body>
</html>
`;
}

/** Only this origin's files and API; nothing inline, nothing framed. */
export const consoleCsp = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
