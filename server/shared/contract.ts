/**
 * The joined contract, loaded once: generated/openapi/ramp.json, the JSON twin of
 * generated/openapi/ramp.yaml that `npm run generate` writes (parsing the YAML took a
 * second of every start). The server takes from it what it would otherwise restate:
 * problem slugs with their status and title, the errors base, and the operations to route.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProblemSlug } from './problems.ts';

export const contractPath = join(import.meta.dirname, '..', '..', 'generated', 'openapi', 'ramp.json');

type Json = Record<string, any>;

export interface ProblemType {
  slug: ProblemSlug;
  type: string;
  title: string;
  status: number;
}

/** The HTTP methods the contract's operations use: the fields of a path item that the server routes. */
export const operationMethods = ['get', 'put', 'post', 'delete', 'patch'] as const;

export interface ContractOperation {
  operationId: string;
  method: (typeof operationMethods)[number];
  path: string;
  /** Takes no API key: `security: []`, or a scheme of its own (the app pages' `AppSession` cookie). */
  isPublic: boolean;
  /** A sandbox simulator (tag `Sandbox`): 403 `forbidden` in production. */
  sandbox: boolean;
  /** Changes nothing (RFC 9110's safe): a GET, or a POST marked `x-safe: true` (v1's lists and searches). */
  safe: boolean;
  /** The documented response statuses (`200`, `404`, …). */
  statuses: string[];
}

export interface Contract {
  document: Json;
  problems: Map<ProblemSlug, ProblemType>;
  operations: ContractOperation[];
}

export function loadContract(path = contractPath): Contract {
  const document = JSON.parse(readFileSync(path, 'utf8')) as Json;
  const problems = new Map<ProblemSlug, ProblemType>();
  for (const [name, schema] of Object.entries<Json>(document.components?.schemas ?? {})) {
    if (!name.endsWith('Problem')) continue;
    // A problem schema is one flat object that fixes its type and title as single-value
    // enums and its status as minimum = maximum (not `const`, not an allOf, no integer enum:
    // see docs/clients.md).
    const fixed = schema.properties;
    if (!fixed?.type?.enum) continue;
    const [type] = fixed.type.enum as [string];
    // The type-level twin of this reading is ProblemSlug (server/shared/problems.ts).
    const slug = type.slice(type.lastIndexOf('/') + 1) as ProblemSlug;
    problems.set(slug, { slug, type, title: fixed.title.enum[0], status: fixed.status.minimum });
  }
  const operations: ContractOperation[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const method of operationMethods) {
      const operation = item[method];
      if (!operation) continue;
      const security = operation.security ?? document.security ?? [];
      const isPublic = security.length === 0 || !security.every((s: Json) => 'ApiKey' in s);
      operations.push({
        operationId: operation.operationId,
        method,
        path,
        isPublic,
        sandbox: (operation.tags ?? []).includes('Sandbox'),
        safe: method === 'get' || operation['x-safe'] === true,
        statuses: Object.keys(operation.responses ?? {}),
      });
    }
  }
  return { document, problems, operations };
}

export type Surface = 'v1' | 'v2' | 'lookup' | 'auth';

/** The surface (document) a path belongs to, by its prefix: errors are rendered in its format, and the request log names it. */
export function surfaceOf(path: string): Surface {
  if (path.startsWith('/ramp/') || path === '/ramp' || path.startsWith('/sandbox/ramp/')) return 'v1';
  if (path.startsWith('/lookup/')) return 'lookup';
  if (path.startsWith('/auth/')) return 'auth';
  return 'v2';
}
