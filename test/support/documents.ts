/** The generated documents, loaded once per test file. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

export const root = resolve(import.meta.dirname, '..', '..');
export const surfaces = ['v1', 'v2', 'lookup', 'auth'] as const;
export type Surface = (typeof surfaces)[number];
export type Json = Record<string, any>;

/** The bundles in generated/openapi: one per surface, the joined one, and the copies of each for client generators. */
export const bundleNames = [...surfaces, 'ramp', 'ramp-clients', ...surfaces.map((s) => `${s}-clients` as const)] as const;
export type BundleName = (typeof bundleNames)[number];

/**
 * A generated bundle, read as YAML 1.2 (the default) or as a YAML 1.1 reader reads it
 * (PyYAML, SnakeYAML, go-yaml v2): there an unquoted `2025-03-10T15:04:05Z` is a timestamp
 * and `yes` a boolean.
 */
export function loadBundle(name: BundleName, options: { yaml?: '1.1' | '1.2' } = {}): Json {
  return parse(readFileSync(join(root, 'generated', 'openapi', `${name}.yaml`), 'utf8'), { version: options.yaml ?? '1.2' });
}

export const httpMethods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

export interface OperationRef {
  method: string;
  path: string;
  operation: Json;
  webhook?: string;
}

/** Every operation of a document: its paths, then its webhooks. */
export function operationsOf(document: Json): OperationRef[] {
  const found: OperationRef[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const method of httpMethods) if (item[method]) found.push({ method, path, operation: item[method] });
  }
  for (const [name, item] of Object.entries<Json>(document.webhooks ?? {})) {
    for (const method of httpMethods) if (item[method]) found.push({ method, path: name, operation: item[method], webhook: name });
  }
  return found;
}

/** Follows a local `$ref` (`#/components/...`) to the node it names. */
export function deref(document: Json, node: Json): Json {
  let at = node;
  for (let hops = 0; typeof at?.$ref === 'string' && hops < 20; hops++) {
    at = at.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((part: string) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce((value: Json, key: string) => value?.[key], document);
  }
  return at;
}

/** Every `$ref` reachable from a node, following references through the document. */
export function reachableRefs(document: Json, node: unknown, seen = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) reachableRefs(document, item, seen);
  else if (node && typeof node === 'object') {
    const ref = (node as Json).$ref;
    if (typeof ref === 'string' && !seen.has(ref)) {
      seen.add(ref);
      reachableRefs(document, deref(document, { $ref: ref }), seen);
    }
    for (const value of Object.values(node)) reachableRefs(document, value, seen);
  }
  return seen;
}

export function pointer(...parts: string[]): string {
  return '#/' + parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
}
