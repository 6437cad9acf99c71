/**
 * The fast half of `npm run docs` (scripts/serve-docs.ts): on a save, the pages the change
 * touches show it within a second or two, while generated/ catches up in the background.
 *
 * The slow part of `npm run generate` is starting Redocly's CLI once per step and building
 * each Redoc page (server-side rendered, scripts inlined). Here Redocly's bundler and linter
 * (@redocly/openapi-core, the library the CLI is built on: its bundles are the CLI's, byte for
 * byte, test/docs/docsPreview.test.ts) stay loaded in this process, only the surfaces whose
 * files changed are bundled again, and a page is the last built Redoc page of its surface
 * with the fresh bundle in place of the one it was built with, rendered in the browser
 * (Redoc's `init`) rather than on the server.
 */
import { bundle, getMergedConfig, lint, loadConfig, type Config } from '@redocly/openapi-core';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { addCodeSamples } from './code-samples.ts';
import { surfaces } from './generate.ts';

export type Surface = (typeof surfaces)[number];

export interface Preview {
  /** The surfaces a saved file belongs to (every one for redocly.yaml or a file no bundle read yet). */
  affected(file: string): Surface[];
  /** Bundles a surface again from the files on disk, with its code samples, as generate does; false when the bundle is as it was. */
  rebuild(surface: Surface): Promise<boolean>;
  /** The surface's last good bundle. */
  document(surface: Surface): Record<string, unknown> | undefined;
  /** redocly.yaml's rules on the surface (npm run lint stays the reference): one line per problem. */
  lint(surface: Surface): Promise<string[]>;
  /** Reads redocly.yaml again (rules, code sample languages). */
  reloadConfig(): Promise<void>;
}

/** `contract` holds redocly.yaml and openapi/ (the repository, or a copy of it). */
export async function createPreview(contract: string): Promise<Preview> {
  const configPath = join(contract, 'redocly.yaml');
  let config: Config = await loadConfig({ configPath });
  const files = new Map<Surface, Set<string>>();
  const documents = new Map<Surface, Record<string, unknown>>();
  const root = (surface: Surface) => join(contract, 'openapi', `${surface}.yaml`);
  // The per-surface rules of redocly.yaml's `apis` (v1's operationId prefix, v2's 401), as `redocly lint <surface>` applies them.
  const surfaceConfig = (surface: Surface) => getMergedConfig(config, surface);

  const preview: Preview = {
    affected(file) {
      const saved = resolve(contract, file);
      if (saved === configPath) return [...surfaces];
      const reading = surfaces.filter((s) => files.get(s)?.has(saved) ?? true);
      return reading.length > 0 ? reading : [...surfaces];
    },
    async rebuild(surface) {
      const result = await bundle({ ref: root(surface), config: surfaceConfig(surface), dereference: false });
      const errors = result.problems.filter((p) => p.severity === 'error');
      if (errors.length > 0) throw new Error(errors.map((p) => `${surface}: ${p.message}`).join('\n'));
      files.set(surface, new Set([resolve(root(surface)), ...[...result.fileDependencies].map((f) => resolve(f))]));
      const document = addCodeSamples(structuredClone(result.bundle.parsed));
      const changed = !isDeepStrictEqual(document, documents.get(surface));
      documents.set(surface, document);
      return changed;
    },
    document: (surface) => documents.get(surface),
    async lint(surface) {
      const problems = await lint({ ref: root(surface), config: surfaceConfig(surface) });
      return problems
        .filter((p) => !p.ignored)
        .map((p) => `${surface}: ${p.severity} ${p.ruleId}: ${p.message}${p.location[0] ? ` (${p.location[0].source.absoluteRef.replace(`${contract}/`, '')} ${p.location[0].pointer})` : ''}`);
    },
    async reloadConfig() {
      config = await loadConfig({ configPath });
    },
  };
  for (const surface of surfaces) await preview.rebuild(surface);
  return preview;
}

/**
 * A built Redoc page (generated/docs/<surface>.html) showing `document` instead of the one it
 * was built with: the server-rendered markup goes, the inlined definition is replaced, and
 * Redoc renders it in the browser (`init`; `hydrate` expects the markup of the old one). The
 * theme, the scripts and Redoc's options are the built page's.
 */
export function previewPage(built: string, document: unknown): string {
  const container = built.indexOf('<div id="redoc">');
  const script = built.indexOf('<script type="module">', container);
  const definition = built.indexOf('const __redoc_definition = ', script);
  const definitionEnd = built.indexOf(';\n', definition);
  const call = built.lastIndexOf('hydrate(__redoc_definition');
  if ([container, script, definition, definitionEnd, call].some((i) => i < 0)) throw new Error('the built Redoc page has not the shape previewPage expects');
  // `<` escaped: a description's `</script>` must not end the script.
  const json = JSON.stringify(document).replace(/</g, '\\u003c');
  return `${built.slice(0, container)}<div id="redoc"></div>\n      ${built.slice(script, definition)}const __redoc_definition = ${json}${built.slice(definitionEnd, call)}init(${built.slice(call + 'hydrate('.length)}`;
}
