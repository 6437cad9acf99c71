/**
 * express-openapi-validator 5.6 finds a request's operation (its `applyOpenApiMetadata`'s
 * `lookupRoute`) by compiling every route of the contract with path-to-regexp, in order, on
 * every request until one matches: per-request work that grows with the contract, about a
 * tenth of the CPU of a cheap request (bench/). Two fixes, both picked up by the validator
 * because it reads these functions off the modules' exports at each call:
 *
 * - `pathToRegexp` is pure, so its results are kept (upstream: cdimascio/express-openapi-validator#1217);
 * - the metadata middleware is the validator's own, with the same results, but the routes
 *   are compiled once and only those that could match the request's first segment and its
 *   number of segments are tried, still in the validator's order (so the first match is the
 *   one it would find).
 */
import { createRequire } from 'node:module';
import type { NextFunction, Request, Response } from 'express';

type PathToRegexp = (path: string, options?: { sensitive?: boolean; strict?: boolean; end?: boolean; delimiter?: string; trailing?: boolean }) => { regexp: RegExp; keys: { name: string }[] };

const memoized = Symbol.for('ramp.pathToRegexp.memoized');
const indexed = Symbol.for('ramp.applyOpenApiMetadata.indexed');

type Json = Record<string, any>;

/** The validator's OpenApiContext, as far as the metadata middleware reads it. */
interface OpenApiContext {
  expressRouteMap: Record<string, Json & { basePath: string }>;
  openApiRouteMap: Record<string, Json>;
  apiDoc: Json;
  serial: number;
  useRequestUrl: boolean;
  ignoreUndocumented: boolean;
  routePair(route: string): { expressRoute: string; openApiRoute: string } | null;
  shouldIgnoreRoute(path: string): boolean;
  isManagedRoute(path: string): boolean;
}

interface IndexedRoute {
  expressRoute: string;
  openApiRoute: string;
  pathKey: string;
  /** Segments after the leading slash; the first one when it is literal. */
  segments: number;
  first: string | undefined;
  compiled: Map<string, { regexp: RegExp; keys: string[] }>;
}

export function cacheValidatorRouteMatchers(): void {
  // The copies of the modules the validator itself resolves.
  const require = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator/dist/middlewares/openapi.metadata.js'));
  const pathModule = require('path-to-regexp') as { pathToRegexp: PathToRegexp & { [memoized]?: true } };
  const metadataModule = require('./openapi.metadata.js') as { applyOpenApiMetadata: ((...args: never[]) => unknown) & { [indexed]?: true } };
  const types = require('../framework/types.js') as { MethodNotAllowed: new (e: Json) => Error; NotFound: new (e: Json) => Error; BadRequest: new (e: Json) => Error };
  const httpMethods = (require('./parsers/schema.preprocessor.js') as { httpMethods: Set<string> }).httpMethods;
  if (!pathModule.pathToRegexp[memoized]) {
    const compile = pathModule.pathToRegexp;
    const compiled = new Map<string, ReturnType<PathToRegexp>>();
    const cached: PathToRegexp & { [memoized]?: true } = (path, options = {}) => {
      // Only string routes with the options the validator passes are kept; anything else compiles as before.
      if (typeof path !== 'string' || Object.keys(options).some((k) => k !== 'sensitive' && k !== 'strict')) return compile(path, options);
      const key = `${options.sensitive ? 1 : 0}${options.strict ? 1 : 0}${path}`;
      let result = compiled.get(key);
      if (result === undefined) compiled.set(key, (result = compile(path, options)));
      return result;
    };
    cached[memoized] = true;
    pathModule.pathToRegexp = cached;
  }
  if (metadataModule.applyOpenApiMetadata[indexed]) return;
  const compile = pathModule.pathToRegexp;
  const apply = (context: OpenApiContext, responseApiDoc?: Json) => {
    const routes: IndexedRoute[] = Object.entries(context.expressRouteMap).map(([expressRoute, methods]) => {
      const openApiRoute = context.routePair(expressRoute)!.openApiRoute;
      const parts = splitPath(expressRoute);
      return {
        expressRoute,
        openApiRoute,
        pathKey: openApiRoute.substring(methods.basePath.length),
        segments: parts.length,
        first: parts[0] === undefined || /[:*{(]/.test(parts[0]) ? undefined : parts[0],
        compiled: new Map(),
      };
    });
    // Candidates by "segments first-segment", each list in the validator's order.
    const candidates = new Map<string, IndexedRoute[]>();
    const candidatesOf = (segments: number, first: string) => {
      const key = `${segments} ${first}`;
      let list = candidates.get(key);
      if (!list) {
        list = routes.filter((r) => r.segments === segments && (r.first === undefined || r.first.toLowerCase() === first));
        if (candidates.size < 10_000) candidates.set(key, list);
      }
      return list;
    };
    const lookupRoute = (req: Request) => {
      const path = (context.useRequestUrl ? req.url : req.originalUrl).split('?')[0]!;
      const method = req.method.toLowerCase();
      const sensitive = !!req.app.enabled('case sensitive routing');
      const strict = !!req.app.enabled('strict routing');
      const flags = `${sensitive ? 1 : 0}${strict ? 1 : 0}`;
      const parts = splitPath(path);
      // Any route this path could match has as many segments, and its literal first segment
      // equal (case-insensitively: a superset when routing is case-sensitive).
      for (const route of candidatesOf(parts.length, (parts[0] ?? '').toLowerCase())) {
        let matcher = route.compiled.get(flags);
        if (!matcher) {
          const { regexp, keys } = compile(route.expressRoute, { sensitive, strict });
          route.compiled.set(flags, (matcher = { regexp, keys: keys.map((k) => k.name) }));
        }
        const matched = matcher.regexp.exec(path);
        if (!matched) continue;
        let pathParams: Record<string, string>;
        try {
          pathParams = Object.fromEntries(matcher.keys.map((name, i) => [name, decodeURIComponent(matched[i + 1]!)]));
        } catch {
          throw new types.BadRequest({ path: req.path, message: `malformed uri'` });
        }
        return {
          schema: context.apiDoc.paths[route.pathKey][method],
          _responseSchema: responseApiDoc?.paths[route.pathKey][method],
          expressRoute: route.expressRoute,
          openApiRoute: route.openApiRoute,
          pathParams,
        };
      }
      return null;
    };
    // From here on, as the validator's own applyOpenApiMetadata.
    return (req: Request & { openapi?: Json }, _res: Response, next: NextFunction) => {
      const path = req.path.startsWith(req.baseUrl) ? req.path : `${req.baseUrl}/${req.path}`;
      if (context.shouldIgnoreRoute(path)) return next();
      const matched = lookupRoute(req);
      if (matched) {
        const { expressRoute, openApiRoute, pathParams, schema } = matched;
        if (!schema) {
          // Prevents validation for routes which match on path but mismatch on method
          if (context.ignoreUndocumented) return next();
          throw new types.MethodNotAllowed({
            path: req.path,
            message: `${req.method} method not allowed`,
            headers: {
              Allow: Object.keys(context.openApiRouteMap[openApiRoute]!)
                .filter((key) => httpMethods.has(key.toLowerCase()))
                .join(', '),
            },
          });
        }
        req.openapi = { expressRoute, openApiRoute, pathParams, schema, serial: context.serial };
        req.params = pathParams;
        if (responseApiDoc) req.openapi._responseSchema = matched._responseSchema;
      } else if (context.isManagedRoute(path) && !context.ignoreUndocumented) {
        throw new types.NotFound({ path: req.path, message: 'not found' });
      }
      next();
    };
  };
  apply[indexed] = true as const;
  metadataModule.applyOpenApiMetadata = apply as never;
}

/**
 * Two costs of the validator's start (about half of the server's start CPU) that buy
 * nothing here, skipped with the same results:
 *
 * - its schema preprocessor finds what `#/components/schemas/X` names by asking an ajv
 *   instance of its own for the compiled validator (`getSchema(ref).schema`), which compiles
 *   every schema of the contract once for nothing (the validators that check requests and
 *   responses are compiled by other instances, per operation, on first use). The schema ajv
 *   holds under that key is read without compiling;
 * - with `validateApiSpec: false` it still compiles the OpenAPI meta-schema it then never uses;
 * - it passes the document through json-schema-ref-parser's `bundle`, which inlines external
 *   references and returns the very same object when there are none (the joined contract
 *   has none): a crawl of every reference that took a second of wall time at each start.
 */
export function lightenValidatorStart(): void {
  const require = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator/dist/middlewares/openapi.metadata.js'));
  type Ajv = { schemas: Record<string, unknown>; refs: Record<string, unknown> };
  type Preprocessor = { ajv: Ajv; resolvedSchemaCache: Map<string, unknown> };
  const { SchemaPreprocessor } = require('./parsers/schema.preprocessor.js') as { SchemaPreprocessor: { prototype: { resolveSchema(this: Preprocessor, schema: unknown): unknown; [lightened]?: true } } };
  const prototype = SchemaPreprocessor.prototype;
  if (!prototype[lightened]) {
    const resolveSchema = prototype.resolveSchema;
    prototype.resolveSchema = function (this: Preprocessor, schema: unknown) {
      const ref = (schema as { $ref?: unknown } | null | undefined)?.$ref;
      if (typeof ref === 'string' && ref.startsWith('#/components/schemas/') && !this.resolvedSchemaCache.has(ref)) {
        // ajv's own lookup (getSchEnv): a key, or a ref, possibly naming another key.
        let env: unknown = this.ajv.schemas[ref] ?? this.ajv.refs[ref];
        for (let hops = 0; typeof env === 'string' && hops < 100; hops++) env = this.ajv.schemas[env] ?? this.ajv.refs[env];
        if (env && typeof env === 'object' && 'schema' in env && (env as { schema: unknown }).schema) {
          this.resolvedSchemaCache.set(ref, (env as { schema: unknown }).schema);
          return (env as { schema: unknown }).schema;
        }
      }
      return resolveSchema.call(this, schema);
    };
    prototype[lightened] = true;
  }
  const { OpenAPIFramework } = require('../framework/index.js') as { OpenAPIFramework: { prototype: { loadSpec(spec: unknown, refParser?: unknown): unknown; [lightened]?: true } } };
  if (!OpenAPIFramework.prototype[lightened]) {
    const loadSpec = OpenAPIFramework.prototype.loadSpec;
    OpenAPIFramework.prototype.loadSpec = function (spec: unknown, refParser?: { mode?: string }) {
      if (typeof spec === 'object' && spec !== null && refParser?.mode !== 'dereference' && !hasExternalRef(spec)) return Promise.resolve(spec);
      return loadSpec.call(this, spec, refParser);
    };
    OpenAPIFramework.prototype[lightened] = true;
  }
  const schemaValidator = require('../framework/openapi.schema.validator.js') as { OpenAPISchemaValidator: (new (opts: { validateApiSpec?: boolean }) => unknown) & { [lightened]?: true } };
  if (!schemaValidator.OpenAPISchemaValidator[lightened]) {
    const Original = schemaValidator.OpenAPISchemaValidator;
    const Lazy = function (opts: { validateApiSpec?: boolean }) {
      return opts.validateApiSpec ? new Original(opts) : { validate: () => ({ errors: [] }) };
    } as unknown as typeof Original;
    Lazy[lightened] = true;
    schemaValidator.OpenAPISchemaValidator = Lazy;
  }
}

const lightened = Symbol.for('ramp.validator.lightened');

/** A `$ref` anywhere that is not a pointer into the document itself (`#/…`). */
function hasExternalRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasExternalRef);
  if (typeof value !== 'object' || value === null) return false;
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && (typeof child !== 'string' || !child.startsWith('#'))) return true;
    if (typeof child === 'object' && child !== null && hasExternalRef(child)) return true;
  }
  return false;
}

/** `/a/b/` → `['a', 'b']`: one trailing slash is optional in a route, as path-to-regexp's `trailing`. */
function splitPath(path: string): string[] {
  const trimmed = path.startsWith('/') ? path.slice(1) : path;
  const parts = trimmed.split('/');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}
