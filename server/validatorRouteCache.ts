/**
 * express-openapi-validator 5.6 finds a request's operation by compiling every route of the
 * contract with path-to-regexp, in order, on every request until one matches (its
 * `lookupRoute`): per-request schema work that grows with the contract, about a tenth of the
 * CPU of a cheap request (bench/). `pathToRegexp` is pure, so its results are kept; the
 * validator reads the function off the module's exports at each call and picks this up.
 * Upstream: cdimascio/express-openapi-validator#1217 (same cache, not released yet).
 */
import { createRequire } from 'node:module';

type PathToRegexp = (path: string, options?: { sensitive?: boolean; strict?: boolean; end?: boolean; delimiter?: string; trailing?: boolean }) => unknown;

const memoized = Symbol.for('ramp.pathToRegexp.memoized');

export function cacheValidatorRouteMatchers(): void {
  // The copy of path-to-regexp the validator itself resolves.
  const require = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator/dist/middlewares/openapi.metadata.js'));
  const module = require('path-to-regexp') as { pathToRegexp: PathToRegexp & { [memoized]?: true } };
  if (module.pathToRegexp[memoized]) return;
  const compile = module.pathToRegexp;
  const compiled = new Map<string, unknown>();
  const cached: PathToRegexp & { [memoized]?: true } = (path, options = {}) => {
    // Only string routes with the options the validator passes are kept; anything else compiles as before.
    if (typeof path !== 'string' || Object.keys(options).some((k) => k !== 'sensitive' && k !== 'strict')) return compile(path, options);
    const key = `${options.sensitive ? 1 : 0}${options.strict ? 1 : 0}${path}`;
    let result = compiled.get(key);
    if (result === undefined) compiled.set(key, (result = compile(path, options)));
    return result;
  };
  cached[memoized] = true;
  module.pathToRegexp = cached;
}
