import type { RequestHandler } from 'express';
import { refusedWhileAnswering } from './errors.ts';

/**
 * Middlewares run in order as one Express layer: the router's work per layer is a share of a
 * cheap request's CPU, kept for the floor "≥ 2× Prism mock on every throughput scenario"
 * (bench/README.md, the audit). An error (passed, thrown or a rejected promise) skips the rest
 * and goes to Express's error handlers, as it would from separate layers. The response
 * validator reports a refused answer here too, after the chain is done: a refusal of the
 * error handler's own answer goes back to it (http/errors.ts refusedWhileAnswering).
 */
export function chain(...middlewares: RequestHandler[]): RequestHandler {
  return (req, res, done) => {
    let index = 0;
    const next = (error?: unknown) => {
      if (error) return refusedWhileAnswering(req, error) ? undefined : done(error);
      const middleware = middlewares[index++];
      if (!middleware) return done();
      try {
        const result = middleware(req, res, next) as unknown;
        if (typeof (result as Promise<unknown> | undefined)?.then === 'function') (result as Promise<unknown>).then(undefined, (e: unknown) => done(e || new Error('Rejected promise')));
      } catch (e) {
        done(e);
      }
    };
    next();
  };
}
